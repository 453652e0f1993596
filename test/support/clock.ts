/** A clock tests move by hand: expiries and windows are tested by moving time, never by sleeping. */
export class TestClock {
  private current: number;
  constructor(start = "2026-11-23T10:00:00.000Z") {
    this.current = Date.parse(start);
  }
  now = (): Date => new Date(this.current);
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
