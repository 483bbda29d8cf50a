-- DropIndex
DROP INDEX "Task_userId_createdAt_idx";

-- CreateIndex
CREATE INDEX "Task_userId_createdAt_id_status_type_deletedAt_idx" ON "Task"("userId", "createdAt", "id", "status", "type", "deletedAt");
