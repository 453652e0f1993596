export function withBuildLock<T>(
  root: string,
  work: () => Promise<T>,
  options?: { pollMs?: number; log?: (line: string) => void },
): Promise<T>;
export function alive(pid: number): boolean;
