/**
 * The fields of an edit form's body that differ from the row the form was opened on. An
 * edit sends only these, so it does not put back what someone else changed meanwhile (上架
 * switched in the list, a price set in another tab) with the values the form was opened on.
 */
export function changedFromRow<Body extends Record<string, unknown>>(row: Record<string, unknown>, body: Body): Partial<Body> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => JSON.stringify(value ?? null) !== JSON.stringify(row[key] ?? null))) as Partial<Body>
}
