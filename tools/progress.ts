/**
 * Progress of long command-line work (codegen, migrations, demo seeding, SDK generation), on stderr so that stdout
 * stays the command's output. On a terminal one line is redrawn in place; elsewhere (CI, pipes) a line is printed at
 * each quarter, so logs stay short. `FZ_PROGRESS=0` silences it.
 */
export interface Progress {
  /** Counts `n` more steps done (default 1), optionally naming the current one. */
  tick(n?: number, what?: string): void;
  /** Ends the bar with a summary line (the time taken). */
  done(summary?: string): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  enabled?: boolean;
  now?: () => number;
}

const WIDTH = 24;

export function progress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const enabled = options.enabled ?? process.env["FZ_PROGRESS"] !== "0";
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const started = now();
  let count = 0;
  let lastQuarter = -1;
  const write = (text: string) => {
    if (enabled) stream.write(text);
  };
  const line = (what?: string) => {
    const share = total > 0 ? Math.min(count / total, 1) : 1;
    const filled = Math.round(share * WIDTH);
    const bar = `[${"#".repeat(filled)}${" ".repeat(WIDTH - filled)}]`;
    return `${label} ${bar} ${Math.floor(share * 100)}% ${count}/${total}${what ? ` ${what}` : ""}`;
  };
  return {
    tick(n = 1, what) {
      count += n;
      if (tty) {
        write(`\r\u001b[2K${line(what)}`);
        return;
      }
      const quarter = total > 0 ? Math.floor((Math.min(count, total) / total) * 4) : 4;
      if (quarter > lastQuarter && quarter < 4) {
        lastQuarter = quarter;
        write(`${line(what)}\n`);
      }
    },
    done(summary) {
      const seconds = ((now() - started) / 1000).toFixed(1);
      write(`${tty ? "\r\u001b[2K" : ""}${label}: ${summary ?? `${count} done`} in ${seconds} s\n`);
    },
  };
}
