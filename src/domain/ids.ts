import { randomBytes } from "node:crypto";

let lastMs = -1;
let sequence = 0;

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond time, a 12-bit sequence, then random bits. Within one millisecond the
 * sequence counts up (RFC 9562 method 1), so ids made by one process sort in creation order; a clock that goes
 * back keeps the last time.
 */
export function uuidv7(now: Date = new Date()): string {
  let ms = now.getTime();
  if (ms <= lastMs) {
    ms = lastMs;
    sequence += 1;
    if (sequence > 0xfff) {
      ms += 1;
      sequence = 0;
    }
  } else {
    sequence = randomBytes(2).readUInt16BE(0) & 0x3ff;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  const time = BigInt(ms);
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
