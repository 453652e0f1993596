/**
 * A typed row's shape as raw SQL returns it: timestamp columns may come back as strings (map them with
 * `dateOf`). For the joins the ORM cannot express; everything else reads typed rows through `em.find`.
 */
export type FromSql<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};
