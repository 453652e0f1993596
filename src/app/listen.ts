import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts listening; resolves to the port (the ephemeral one when `port` is 0). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
