-- CreateIndex
CREATE INDEX "Task_mj_roots_idx" ON "Task"("userId", "createdAt" DESC, "id" DESC) WHERE ("type" IN ('MJ_TEXT2IMG', 'MJ_IMG2IMG') AND "parentId" IS NULL);
