-- Hand-written: the append-only guards also cover TRUNCATE, which skips row triggers
-- (a TRUNCATE ... CASCADE from a referencing table reaches these tables too and is
-- refused the same way). Statement-level: TRUNCATE has no rows to look at.
CREATE TRIGGER "LedgerEntry_no_truncate" BEFORE TRUNCATE ON "LedgerEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER "AdminAuditLog_no_truncate" BEFORE TRUNCATE ON "AdminAuditLog"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();
