-- DropIndex
DROP INDEX "Order_createdAt_idx";

-- DropIndex
DROP INDEX "User_createdAt_idx";

-- CreateTable
CREATE TABLE "UserCount" (
    "id" BIGSERIAL NOT NULL,
    "role" "Role" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "UserCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskStatusCount" (
    "id" BIGSERIAL NOT NULL,
    "type" "TaskType" NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "TaskStatusCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderCount" (
    "id" BIGSERIAL NOT NULL,
    "type" "OrderType" NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "OrderCount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChargeRecordCount" (
    "id" BIGSERIAL NOT NULL,
    "type" "OrderType" NOT NULL,
    "channel" "PayChannel" NOT NULL,
    "status" "Status" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "ChargeRecordCount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChargeRecord_userId_id_idx" ON "ChargeRecord"("userId", "id");

-- CreateIndex
CREATE INDEX "Order_createdAt_id_idx" ON "Order"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_status_createdAt_id_idx" ON "Order"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_createdAt_id_idx" ON "Task"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_status_createdAt_id_idx" ON "Task"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "User_createdAt_id_idx" ON "User"("createdAt", "id");

-- CreateIndex
CREATE INDEX "User_role_createdAt_id_idx" ON "User"("role", "createdAt", "id");

-- Hand-written, as in migration list_counts: the counters of the console's user, task, order
-- and charge-record lists are kept by statement-level triggers with transition tables, in the
-- same transaction as the rows (a rolled-back change leaves them as they were), as rows of
-- deltas that readers sum and the worker folds together: a submit (the user's row, then a new
-- task) and a refund (the task, then the user's row) never meet on a counter row. An UPDATE trigger
-- cannot name its columns when it has transition tables, so it runs on every update; an update
-- that moves no row between keys (points, progress, leases) writes nothing (HAVING sum <> 0).

CREATE FUNCTION user_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "UserCount" ("role", "n")
      SELECT "role", count(*) FROM new_rows GROUP BY 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "UserCount" ("role", "n")
      SELECT "role", -count(*) FROM old_rows GROUP BY 1;
  ELSE
    INSERT INTO "UserCount" ("role", "n")
      SELECT "role", sum(d) FROM (
        SELECT "role", 1 AS d FROM new_rows
        UNION ALL
        SELECT "role", -1 AS d FROM old_rows
      ) moved GROUP BY 1 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION user_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "UserCount";
  RETURN NULL;
END $$;

CREATE FUNCTION task_status_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "TaskStatusCount" ("type", "status", "n")
      SELECT "type", "status", count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "TaskStatusCount" ("type", "status", "n")
      SELECT "type", "status", -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO "TaskStatusCount" ("type", "status", "n")
      SELECT "type", "status", sum(d) FROM (
        SELECT "type", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT "type", "status", -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION task_status_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "TaskStatusCount";
  RETURN NULL;
END $$;

CREATE FUNCTION order_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "OrderCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "OrderCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "OrderCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", sum(d) FROM (
        SELECT "type", "channel", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT "type", "channel", "status", -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION order_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "OrderCount";
  RETURN NULL;
END $$;

CREATE FUNCTION charge_record_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "ChargeRecordCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", count(*) FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "ChargeRecordCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", -count(*) FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "ChargeRecordCount" ("type", "channel", "status", "n")
      SELECT "type", "channel", "status", sum(d) FROM (
        SELECT "type", "channel", "status", 1 AS d FROM new_rows
        UNION ALL
        SELECT "type", "channel", "status", -1 AS d FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION charge_record_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ChargeRecordCount";
  RETURN NULL;
END $$;

-- No writes while the counters are filled from the rows already there.
LOCK TABLE "User", "Task", "Order", "ChargeRecord" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "User_count_insert" AFTER INSERT ON "User" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_count_apply();
CREATE TRIGGER "User_count_update" AFTER UPDATE ON "User" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_count_apply();
CREATE TRIGGER "User_count_delete" AFTER DELETE ON "User" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_count_apply();
CREATE TRIGGER "User_count_truncate" AFTER TRUNCATE ON "User" FOR EACH STATEMENT EXECUTE FUNCTION user_count_truncate();
INSERT INTO "UserCount" ("role", "n") SELECT "role", count(*) FROM "User" GROUP BY 1;

CREATE TRIGGER "Task_count_insert" AFTER INSERT ON "Task" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION task_status_count_apply();
CREATE TRIGGER "Task_count_update" AFTER UPDATE ON "Task" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION task_status_count_apply();
CREATE TRIGGER "Task_count_delete" AFTER DELETE ON "Task" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION task_status_count_apply();
CREATE TRIGGER "Task_count_truncate" AFTER TRUNCATE ON "Task" FOR EACH STATEMENT EXECUTE FUNCTION task_status_count_truncate();
INSERT INTO "TaskStatusCount" ("type", "status", "n") SELECT "type", "status", count(*) FROM "Task" GROUP BY 1, 2;

CREATE TRIGGER "Order_count_insert" AFTER INSERT ON "Order" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_count_apply();
CREATE TRIGGER "Order_count_update" AFTER UPDATE ON "Order" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_count_apply();
CREATE TRIGGER "Order_count_delete" AFTER DELETE ON "Order" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_count_apply();
CREATE TRIGGER "Order_count_truncate" AFTER TRUNCATE ON "Order" FOR EACH STATEMENT EXECUTE FUNCTION order_count_truncate();
INSERT INTO "OrderCount" ("type", "channel", "status", "n") SELECT "type", "channel", "status", count(*) FROM "Order" GROUP BY 1, 2, 3;

CREATE TRIGGER "ChargeRecord_count_insert" AFTER INSERT ON "ChargeRecord" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_record_count_apply();
CREATE TRIGGER "ChargeRecord_count_update" AFTER UPDATE ON "ChargeRecord" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_record_count_apply();
CREATE TRIGGER "ChargeRecord_count_delete" AFTER DELETE ON "ChargeRecord" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION charge_record_count_apply();
CREATE TRIGGER "ChargeRecord_count_truncate" AFTER TRUNCATE ON "ChargeRecord" FOR EACH STATEMENT EXECUTE FUNCTION charge_record_count_truncate();
INSERT INTO "ChargeRecordCount" ("type", "channel", "status", "n") SELECT "type", "channel", "status", count(*) FROM "ChargeRecord" GROUP BY 1, 2, 3;
