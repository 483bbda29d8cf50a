-- AlterTable
ALTER TABLE "UserCount" ADD COLUMN     "invited" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CommissionRecordCount" (
    "id" BIGSERIAL NOT NULL,
    "orderType" "OrderType" NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "CommissionRecordCount_pkey" PRIMARY KEY ("id")
);

-- Hand-written, as in migration other_list_counts: the console's invite list counts the
-- invited users and the commission records from counters that statement-level triggers keep
-- as rows of deltas in the same transaction as the change (lib/db/compact-counts.ts folds them).

-- The user counters also tell invited users from the others; binding an inviter moves a user between keys.
CREATE OR REPLACE FUNCTION user_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "UserCount" ("role", "invited", "n")
      SELECT "role", "inviterId" IS NOT NULL, count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "UserCount" ("role", "invited", "n")
      SELECT "role", "inviterId" IS NOT NULL, -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO "UserCount" ("role", "invited", "n")
      SELECT "role", "invited", sum(d) FROM (
        SELECT "role", "inviterId" IS NOT NULL AS "invited", 1 AS d FROM new_rows
        UNION ALL
        SELECT "role", "inviterId" IS NOT NULL, -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION commission_record_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CommissionRecordCount" ("orderType", "status", "n")
      SELECT "orderType", "status", count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "CommissionRecordCount" ("orderType", "status", "n")
      SELECT "orderType", "status", -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO "CommissionRecordCount" ("orderType", "status", "n")
      SELECT "orderType", "status", sum(d) FROM (
        SELECT "orderType", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT "orderType", "status", -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION commission_record_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "CommissionRecordCount";
  RETURN NULL;
END $$;

-- No writes while the counters are filled from the rows already there.
LOCK TABLE "User", "CommissionRecord" IN SHARE ROW EXCLUSIVE MODE;

DELETE FROM "UserCount";
INSERT INTO "UserCount" ("role", "invited", "n") SELECT "role", "inviterId" IS NOT NULL, count(*) FROM "User" GROUP BY 1, 2;

CREATE TRIGGER "CommissionRecord_count_insert" AFTER INSERT ON "CommissionRecord" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_record_count_apply();
CREATE TRIGGER "CommissionRecord_count_update" AFTER UPDATE ON "CommissionRecord" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_record_count_apply();
CREATE TRIGGER "CommissionRecord_count_delete" AFTER DELETE ON "CommissionRecord" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_record_count_apply();
CREATE TRIGGER "CommissionRecord_count_truncate" AFTER TRUNCATE ON "CommissionRecord" FOR EACH STATEMENT EXECUTE FUNCTION commission_record_count_truncate();
INSERT INTO "CommissionRecordCount" ("orderType", "status", "n") SELECT "orderType", "status", count(*) FROM "CommissionRecord" GROUP BY 1, 2;
