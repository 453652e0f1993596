import { DriverException } from "@mikro-orm/core";
import pino from "pino";

/**
 * What a log line says about a database error: its class, SQLSTATE and the objects it names, never the statement
 * or its values (a failed insert's message and `detail` carry every bound value: password hashes, key hashes,
 * personal data). The server's message is cut at its first ": ", where PostgreSQL appends the offending input.
 */
export function databaseErrorForLog(err: DriverException): Record<string, unknown> {
  const own = err as DriverException & Partial<Record<"table" | "column" | "constraint" | "routine", string>>;
  const serverMessage = err.message.split("\n")[0]?.split(" - ").at(-1) ?? "";
  const out: Record<string, unknown> = {
    type: err.name,
    code: err.code ?? own.sqlState,
    message: serverMessage.split(": ")[0]?.slice(0, 200),
  };
  for (const key of ["table", "column", "constraint"] as const) if (own[key]) out[key] = own[key];
  return out;
}

/** pino's error serializer, with database errors (also as another error's cause) reduced to the safe fields. */
export function serializeError(err: unknown): unknown {
  if (err instanceof DriverException) return databaseErrorForLog(err);
  if (!(err instanceof Error)) return err;
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  if (err.cause instanceof DriverException) serialized["cause"] = databaseErrorForLog(err.cause);
  return serialized;
}
