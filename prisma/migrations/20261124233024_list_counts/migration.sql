-- CreateTable
CREATE TABLE "CardCount" (
    "id" BIGSERIAL NOT NULL,
    "batchId" INTEGER NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "CardCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WallWorkCount" (
    "id" BIGSERIAL NOT NULL,
    "status" "WallStatus" NOT NULL,
    "featured" BOOLEAN NOT NULL,
    "reported" BOOLEAN NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "WallWorkCount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WallWork_createdAt_id_idx" ON "WallWork"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WallWork_status_createdAt_id_idx" ON "WallWork"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WallWork_reports_id_idx" ON "WallWork"("reports" DESC, "id" DESC);

-- Hand-written: the counters are kept by statement-level triggers, so they change in the
-- same transaction as the rows (a rolled-back change leaves them as they were) and a bulk
-- statement (an import of 10,000 cards, the background check) adds one row per (batch,
-- status) it moves, not one per row. The counters only ever get new rows, deltas, that a
-- reader sums: a writer never updates, so never locks, a counter row another one needs.
-- Upserting one row per key would make every transaction that moves a key wait for every
-- other one moving it, and deadlock with a transaction that takes the same locks in the
-- other order (a user's row, then the counter). The worker folds the deltas into one row
-- per key every minute (lib/worker/compact-counts.ts).
CREATE FUNCTION card_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CardCount" ("batchId", "status", "n")
      SELECT "batchId", "status", count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "CardCount" ("batchId", "status", "n")
      SELECT "batchId", "status", -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO "CardCount" ("batchId", "status", "n")
      SELECT "batchId", "status", sum(d) FROM (
        SELECT "batchId", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT "batchId", "status", -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION card_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "CardCount";
  RETURN NULL;
END $$;

CREATE FUNCTION wall_work_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "WallWorkCount" ("status", "featured", "reported", "n")
      SELECT "status", "featured", "reports" > 0, count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "WallWorkCount" ("status", "featured", "reported", "n")
      SELECT "status", "featured", "reports" > 0, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "WallWorkCount" ("status", "featured", "reported", "n")
      SELECT "status", "featured", "reported", sum(d) FROM (
        SELECT "status", "featured", "reports" > 0 AS "reported", 1 AS d FROM new_rows
        UNION ALL
        SELECT "status", "featured", "reports" > 0, -1 FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION wall_work_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "WallWorkCount";
  RETURN NULL;
END $$;

-- No writes while the counters are filled from the rows already there.
LOCK TABLE "Card", "WallWork" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "Card_count_insert" AFTER INSERT ON "Card" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION card_count_apply();
CREATE TRIGGER "Card_count_update" AFTER UPDATE ON "Card" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION card_count_apply();
CREATE TRIGGER "Card_count_delete" AFTER DELETE ON "Card" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION card_count_apply();
CREATE TRIGGER "Card_count_truncate" AFTER TRUNCATE ON "Card" FOR EACH STATEMENT EXECUTE FUNCTION card_count_truncate();
INSERT INTO "CardCount" ("batchId", "status", "n") SELECT "batchId", "status", count(*) FROM "Card" GROUP BY 1, 2;

CREATE TRIGGER "WallWork_count_insert" AFTER INSERT ON "WallWork" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wall_work_count_apply();
CREATE TRIGGER "WallWork_count_update" AFTER UPDATE ON "WallWork" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wall_work_count_apply();
CREATE TRIGGER "WallWork_count_delete" AFTER DELETE ON "WallWork" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION wall_work_count_apply();
CREATE TRIGGER "WallWork_count_truncate" AFTER TRUNCATE ON "WallWork" FOR EACH STATEMENT EXECUTE FUNCTION wall_work_count_truncate();
INSERT INTO "WallWorkCount" ("status", "featured", "reported", "n") SELECT "status", "featured", "reports" > 0, count(*) FROM "WallWork" GROUP BY 1, 2, 3;

-- Every change that matters to a signed-in session (docs/PRODUCT.md §4.3: token version, role, ban,
-- name) tells the web processes to drop their cached copy of the user (lib/auth/session-cache.ts).
-- Points and balance move often and do not matter to a session: they send nothing.
CREATE FUNCTION user_session_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('aiimg_session_users', CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END);
  RETURN NULL;
END $$;

CREATE TRIGGER "User_session_update" AFTER UPDATE ON "User" FOR EACH ROW
  WHEN (OLD."role" IS DISTINCT FROM NEW."role" OR OLD."tokenVersion" IS DISTINCT FROM NEW."tokenVersion"
        OR OLD."bannedAt" IS DISTINCT FROM NEW."bannedAt" OR OLD."name" IS DISTINCT FROM NEW."name"
        OR OLD."username" IS DISTINCT FROM NEW."username" OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION user_session_notify();
CREATE TRIGGER "User_session_delete" AFTER DELETE ON "User" FOR EACH ROW EXECUTE FUNCTION user_session_notify();
