-- CreateTable
CREATE TABLE "ChatAllowanceDay" (
    "day" TIMESTAMP(3) NOT NULL,
    "userId" TEXT NOT NULL,
    "used" INTEGER NOT NULL,

    CONSTRAINT "ChatAllowanceDay_pkey" PRIMARY KEY ("day","userId"),
    CONSTRAINT "ChatAllowanceDay_used_check" CHECK ("used" >= 0)
);

-- Hand-written: today's and yesterday's (Beijing, UTC+8) membership-paid answers still stored,
-- so the allowances in use are not handed out again when this ships. An answer under way is
-- counted too: dropping it (nothing delivered) takes its count back like any other.
INSERT INTO "ChatAllowanceDay" ("day", "userId", "used")
SELECT date_trunc('day', "createdAt" + interval '8 hours') - interval '8 hours', "userId", count(*)
FROM "ChatMessage"
WHERE "role" = 'ASSISTANT' AND "paidBy" = 'MEMBERSHIP'
  AND "createdAt" >= date_trunc('day', (now() AT TIME ZONE 'UTC') + interval '8 hours') - interval '32 hours'
GROUP BY 1, 2;
