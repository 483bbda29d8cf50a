-- CreateTable
CREATE TABLE "ChargeDayTotal" (
    "id" BIGSERIAL NOT NULL,
    "day" DATE NOT NULL,
    "type" "OrderType" NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "n" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "ChargeDayTotal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserDayCount" (
    "id" BIGSERIAL NOT NULL,
    "day" DATE NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "UserDayCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskDayCount" (
    "id" BIGSERIAL NOT NULL,
    "day" DATE NOT NULL,
    "type" "TaskType" NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "TaskDayCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PointsDayTotal" (
    "id" BIGSERIAL NOT NULL,
    "day" DATE NOT NULL,
    "issued" BIGINT NOT NULL,
    "spent" BIGINT NOT NULL,

    CONSTRAINT "PointsDayTotal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChargeDayTotal_day_idx" ON "ChargeDayTotal"("day");

-- CreateIndex
CREATE INDEX "UserDayCount_day_idx" ON "UserDayCount"("day");

-- CreateIndex
CREATE INDEX "TaskDayCount_day_idx" ON "TaskDayCount"("day");

-- CreateIndex
CREATE INDEX "PointsDayTotal_day_idx" ON "PointsDayTotal"("day");

-- Hand-written, as in migrations list_counts and other_list_counts: the console's revenue
-- report and analysis (lib/analysis/day-totals.ts) read per-day totals that statement-level
-- triggers keep in the same transaction as the rows, as rows of deltas that readers sum and
-- the worker folds together (lib/db/compact-counts.ts); a writer never updates, so never
-- waits for, a total another one needs. Summing a year of days reads a few thousand rows
-- instead of every charge record, user, task and ledger entry of the year.

-- The Beijing day of a stored (UTC) timestamp, the day the reports group by.
CREATE FUNCTION beijing_day(ts timestamp) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT ((ts AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Shanghai')::date
$$;

-- Only paid (SUCCESS) records count: a record moved out of SUCCESS leaves the day's revenue.
CREATE FUNCTION charge_day_total_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "ChargeDayTotal" ("day", "type", "channel", "n", "amount")
      SELECT beijing_day("createdAt"), "type", "channel", count(*), sum("amount") FROM new_rows WHERE "status" = 'SUCCESS' GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "ChargeDayTotal" ("day", "type", "channel", "n", "amount")
      SELECT beijing_day("createdAt"), "type", "channel", -count(*), -sum("amount") FROM old_rows WHERE "status" = 'SUCCESS' GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "ChargeDayTotal" ("day", "type", "channel", "n", "amount")
      SELECT "day", "type", "channel", sum(d), sum(a) FROM (
        SELECT beijing_day("createdAt") AS "day", "type", "channel", 1 AS d, "amount"::bigint AS a FROM new_rows WHERE "status" = 'SUCCESS'
        UNION ALL
        SELECT beijing_day("createdAt"), "type", "channel", -1, -"amount"::bigint FROM old_rows WHERE "status" = 'SUCCESS'
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0 OR sum(a) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION task_day_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "TaskDayCount" ("day", "type", "status", "n")
      SELECT beijing_day("createdAt"), "type", "status", count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "TaskDayCount" ("day", "type", "status", "n")
      SELECT beijing_day("createdAt"), "type", "status", -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "TaskDayCount" ("day", "type", "status", "n")
      SELECT "day", "type", "status", sum(d) FROM (
        SELECT beijing_day("createdAt") AS "day", "type", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT beijing_day("createdAt"), "type", "status", -1 FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION user_day_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "UserDayCount" ("day", "n") SELECT beijing_day("createdAt"), count(*) FROM new_rows GROUP BY 1;
  ELSE
    INSERT INTO "UserDayCount" ("day", "n") SELECT beijing_day("createdAt"), -count(*) FROM old_rows GROUP BY 1;
  END IF;
  RETURN NULL;
END $$;

-- A user's row changes on every charge and credit; only a changed sign-up time moves a day,
-- so updates are watched row by row, and only those that change it.
CREATE FUNCTION user_day_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "UserDayCount" ("day", "n") VALUES (beijing_day(OLD."createdAt"), -1), (beijing_day(NEW."createdAt"), 1);
  RETURN NULL;
END $$;

-- The ledger is append-only (migration ledger_and_cards): only inserts move its totals.
CREATE FUNCTION points_day_total_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PointsDayTotal" ("day", "issued", "spent")
    SELECT beijing_day("createdAt"), coalesce(sum("amount") FILTER (WHERE "amount" > 0), 0), coalesce(-sum("amount") FILTER (WHERE "amount" < 0), 0)
    FROM new_rows WHERE "account" = 'POINTS' GROUP BY 1;
  RETURN NULL;
END $$;

CREATE FUNCTION day_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I', TG_ARGV[0]);
  RETURN NULL;
END $$;

-- No writes while the totals are filled from the rows already there.
LOCK TABLE "ChargeRecord", "Task", "User", "LedgerEntry" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "ChargeRecord_day_insert" AFTER INSERT ON "ChargeRecord" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_day_total_apply();
CREATE TRIGGER "ChargeRecord_day_update" AFTER UPDATE ON "ChargeRecord" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_day_total_apply();
CREATE TRIGGER "ChargeRecord_day_delete" AFTER DELETE ON "ChargeRecord" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_day_total_apply();
CREATE TRIGGER "ChargeRecord_day_truncate" AFTER TRUNCATE ON "ChargeRecord" FOR EACH STATEMENT EXECUTE FUNCTION day_totals_truncate('ChargeDayTotal');
INSERT INTO "ChargeDayTotal" ("day", "type", "channel", "n", "amount")
  SELECT beijing_day("createdAt"), "type", "channel", count(*), sum("amount") FROM "ChargeRecord" WHERE "status" = 'SUCCESS' GROUP BY 1, 2, 3;

CREATE TRIGGER "Task_day_insert" AFTER INSERT ON "Task" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION task_day_count_apply();
CREATE TRIGGER "Task_day_update" AFTER UPDATE ON "Task" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION task_day_count_apply();
CREATE TRIGGER "Task_day_delete" AFTER DELETE ON "Task" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION task_day_count_apply();
CREATE TRIGGER "Task_day_truncate" AFTER TRUNCATE ON "Task" FOR EACH STATEMENT EXECUTE FUNCTION day_totals_truncate('TaskDayCount');
INSERT INTO "TaskDayCount" ("day", "type", "status", "n") SELECT beijing_day("createdAt"), "type", "status", count(*) FROM "Task" GROUP BY 1, 2, 3;

CREATE TRIGGER "User_day_insert" AFTER INSERT ON "User" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_day_count_apply();
CREATE TRIGGER "User_day_update" AFTER UPDATE OF "createdAt" ON "User" FOR EACH ROW
  WHEN (beijing_day(OLD."createdAt") IS DISTINCT FROM beijing_day(NEW."createdAt")) EXECUTE FUNCTION user_day_count_move();
CREATE TRIGGER "User_day_delete" AFTER DELETE ON "User" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_day_count_apply();
CREATE TRIGGER "User_day_truncate" AFTER TRUNCATE ON "User" FOR EACH STATEMENT EXECUTE FUNCTION day_totals_truncate('UserDayCount');
INSERT INTO "UserDayCount" ("day", "n") SELECT beijing_day("createdAt"), count(*) FROM "User" GROUP BY 1;

CREATE TRIGGER "LedgerEntry_day_insert" AFTER INSERT ON "LedgerEntry" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION points_day_total_apply();
INSERT INTO "PointsDayTotal" ("day", "issued", "spent")
  SELECT beijing_day("createdAt"), coalesce(sum("amount") FILTER (WHERE "amount" > 0), 0), coalesce(-sum("amount") FILTER (WHERE "amount" < 0), 0)
  FROM "LedgerEntry" WHERE "account" = 'POINTS' GROUP BY 1;
