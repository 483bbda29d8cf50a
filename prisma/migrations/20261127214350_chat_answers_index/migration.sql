-- The console's chat usage (lib/chat/manage-chat-models.ts) totals a period's answers by model
-- and by user: this index holds every column it needs, for answers only.

-- CreateIndex
CREATE INDEX "ChatMessage_answers_createdAt_idx" ON "ChatMessage"("createdAt", "modelId", "userId", "points") WHERE ("role" = 'ASSISTANT');
