-- CreateTable
CREATE TABLE "ChatUsageHourTotal" (
    "id" BIGSERIAL NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "modelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "messages" INTEGER NOT NULL,
    "points" BIGINT NOT NULL,

    CONSTRAINT "ChatUsageHourTotal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChatUsageHourTotal_hour_idx" ON "ChatUsageHourTotal"("hour");

-- Hand-written, as in migration day_totals: the console's chat usage (GET /api/admin/chat-usage)
-- sums a period's answers per model and per user. Reading every answer of 30 days grows with
-- the site; these hourly totals, kept by statement-level triggers in the same transaction as
-- the messages, hold one row per hour, model and user that answered (plus deltas the worker
-- folds together, lib/db/compact-counts.ts). The period is the last N × 24 hours, to the
-- millisecond: its whole hours come from here, its first, partial hour from the messages.

CREATE FUNCTION chat_usage_hour_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "ChatUsageHourTotal" ("hour", "modelId", "userId", "messages", "points")
      SELECT date_trunc('hour', "createdAt"), "modelId", "userId", count(*), sum("points") FROM new_rows WHERE "role" = 'ASSISTANT' GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "ChatUsageHourTotal" ("hour", "modelId", "userId", "messages", "points")
      SELECT date_trunc('hour', "createdAt"), "modelId", "userId", -count(*), -sum("points") FROM old_rows WHERE "role" = 'ASSISTANT' GROUP BY 1, 2, 3;
  ELSE
    -- An answer's text is written once it has streamed: that update moves nothing, and adds no row.
    INSERT INTO "ChatUsageHourTotal" ("hour", "modelId", "userId", "messages", "points")
      SELECT "hour", "modelId", "userId", sum(d), sum(p) FROM (
        SELECT date_trunc('hour', "createdAt") AS "hour", "modelId", "userId", 1 AS d, "points"::bigint AS p FROM new_rows WHERE "role" = 'ASSISTANT'
        UNION ALL
        SELECT date_trunc('hour', "createdAt"), "modelId", "userId", -1, -"points"::bigint FROM old_rows WHERE "role" = 'ASSISTANT'
      ) moved GROUP BY 1, 2, 3 HAVING sum(d) <> 0 OR sum(p) <> 0;
  END IF;
  RETURN NULL;
END $$;

-- No writes while the totals are filled from the messages already there.
LOCK TABLE "ChatMessage" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER "ChatMessage_usage_insert" AFTER INSERT ON "ChatMessage" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_usage_hour_apply();
CREATE TRIGGER "ChatMessage_usage_update" AFTER UPDATE ON "ChatMessage" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_usage_hour_apply();
CREATE TRIGGER "ChatMessage_usage_delete" AFTER DELETE ON "ChatMessage" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_usage_hour_apply();
CREATE TRIGGER "ChatMessage_usage_truncate" AFTER TRUNCATE ON "ChatMessage" FOR EACH STATEMENT EXECUTE FUNCTION day_totals_truncate('ChatUsageHourTotal');
INSERT INTO "ChatUsageHourTotal" ("hour", "modelId", "userId", "messages", "points")
  SELECT date_trunc('hour', "createdAt"), "modelId", "userId", count(*), sum("points") FROM "ChatMessage" WHERE "role" = 'ASSISTANT' GROUP BY 1, 2, 3;
