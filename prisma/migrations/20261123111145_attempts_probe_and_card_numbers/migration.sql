-- Hand-written: card numbers keep 8 digits and grow past 99,999,999 instead of being cut
-- (lpad truncates, which made the 100,000,000th number collide with an earlier one).
CREATE FUNCTION next_card_no() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT 'C' || lpad(n::text, greatest(8, length(n::text)), '0') FROM nextval('card_no_seq'::regclass) AS n
$$;

-- AlterTable
ALTER TABLE "Card" ALTER COLUMN "cardNo" SET DEFAULT next_card_no();

-- AlterTable
ALTER TABLE "SmsCode" ADD COLUMN     "userId" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "probeBeforeSubmit" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requestHash" TEXT;

-- CreateTable
CREATE TABLE "BackendAttempt" (
    "id" BIGSERIAL NOT NULL,
    "modelId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BackendAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BackendAttempt_modelId_createdAt_idx" ON "BackendAttempt"("modelId", "createdAt");

-- CreateIndex
CREATE INDEX "BackendAttempt_createdAt_idx" ON "BackendAttempt"("createdAt");

-- AddForeignKey
ALTER TABLE "BackendAttempt" ADD CONSTRAINT "BackendAttempt_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "AiModel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: tasks in flight keep the earlier rule (any retry asked the backend first).
UPDATE "Task" SET "probeBeforeSubmit" = true WHERE "status" = 'PENDING' AND "attempts" > 0 AND "upstreamId" IS NULL;
