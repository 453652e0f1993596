/**
 * Type-level expectations of the generated client, checked by `npm run typecheck` (never run): each
 * `@ts-expect-error` fails the typecheck if the client stops refusing that line.
 */
import {
  type ErrorVariant,
  type FreezoneClient,
  isMethodError,
  type ResidentResult,
  type ResidentStatus,
  type ResidentSummary,
} from "../../clients/ts/src/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(value: T): T => value;

export async function expectations(client: FreezoneClient, caught: unknown): Promise<void> {
  const created = await client.residentservice.create({
    data: { email: "a@example.org", first_name: "A", last_name: "B", phone: "+255777123456" },
  });
  is<Equal<typeof created, ResidentResult>>(true);
  // Enumerations are string unions.
  is<Equal<ResidentStatus, "pending" | "active" | "suspended" | "expired">>(true);
  // @ts-expect-error an unknown param is refused
  await client.residentservice.get({ resident_id: "x", extra: 1 });
  // @ts-expect-error a required param cannot be left out
  await client.residentservice.get({});
  // @ts-expect-error a param of the wrong type is refused
  await client.residentservice.get({ resident_id: 42 });
  // @ts-expect-error no such method
  await client.residentservice.no_such_method();
  // A method without params takes none (or an empty object) and per-call options.
  await client.authservice.me(undefined, { signal: AbortSignal.timeout(1000) });
  // @ts-expect-error a method without params refuses any
  await client.authservice.me({ anything: 1 });

  const [me, resident] = await client.batch((b) => [b.authservice.me(), b.residentservice.get({ resident_id: "x" })]);
  if (me.ok) is<Equal<typeof me.result.email, string>>(true);
  if (resident.ok) is<Equal<typeof resident.result, ResidentResult>>(true);
  else is<"NotFound" extends typeof resident.error.variant ? true : false>(true);

  // Every list has an iterator beside it that yields the items of all its pages and sets the paging param itself.
  for await (const item of client.residentservice.list_all({ page_size: 50 })) {
    is<Equal<typeof item, ResidentSummary>>(true);
  }
  for await (const sid of client.apikey.list_all()) is<Equal<typeof sid, string>>(true);
  // @ts-expect-error the iterator sets page itself
  client.residentservice.list_all({ page_size: 50, page: 2 });
  // @ts-expect-error an operation that is no list has no iterator
  client.residentservice.get_all({ resident_id: "x" });

  if (isMethodError(caught, "residentservice.create")) {
    const variant: ErrorVariant<"residentservice.create"> = caught.variant;
    // @ts-expect-error not a variant of residentservice.create nor a common one
    const wrong: typeof variant = "InsufficientFunds";
    void wrong;
  }
}
