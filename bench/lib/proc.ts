/**
 * Linux /proc readings for the servers the bench starts: which process of a tree listens on a port (`npm start`
 * runs sh, tsx and node under npm; the server is the one holding the listening socket) and its resident memory.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const MIB = 1024;

/** `pid` and every process below it (parent links read from /proc/<pid>/stat). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** Inodes of the TCP sockets listening on `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A") inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** The process of `rootPid`'s tree that holds the socket listening on `port`, or null (not listening yet). */
export function listeningPid(rootPid: number, port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const pid of processTree(rootPid)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)?.[1];
        if (inode && inodes.has(inode)) return pid;
      } catch {
        // the descriptor closed while we looked
      }
    }
  }
  return null;
}

/** A memory figure of /proc/<pid>/status in MiB (VmRSS: resident now; VmHWM: the peak so far), 0 once ended. */
export function rssMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return Math.round((kib / MIB) * 10) / 10;
  } catch {
    return 0;
  }
}

export interface ServerMemory {
  pid: number | null;
  /** Resident now. */
  rssMiB: number;
  /** The highest resident memory since the process started (VmHWM). */
  peakRssMiB: number;
  /** Resident now, every process of the tree (npm, sh, a runner and the server). */
  treeRssMiB: number;
}

/** Resident memory of the server listening on `port` under `rootPid`. */
export function serverMemory(rootPid: number, port: number): ServerMemory {
  const pid = listeningPid(rootPid, port);
  const tree = processTree(rootPid).reduce((sum, p) => sum + rssMiB(p), 0);
  return {
    pid,
    rssMiB: pid === null ? 0 : rssMiB(pid),
    peakRssMiB: pid === null ? 0 : rssMiB(pid, "VmHWM"),
    treeRssMiB: Math.round(tree * 10) / 10,
  };
}

/** Whether a process still exists (zombies count as gone). */
export function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
}
