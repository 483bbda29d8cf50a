-- Task changes a page shows (status, stage, progress, preview, results) are announced on
-- the channel aiimg_task_events as '<userId>:<taskId>', delivered when the change commits:
-- GET /api/tasks/events pushes them to the owner's open pages.
CREATE OR REPLACE FUNCTION "announce_task_change"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('aiimg_task_events', NEW."userId" || ':' || NEW."id");
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Task_announce_insert" AFTER INSERT ON "Task"
  FOR EACH ROW EXECUTE FUNCTION "announce_task_change"();

CREATE TRIGGER "Task_announce_update" AFTER UPDATE OF "status", "stage", "progress", "previewUrl", "results" ON "Task"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."stage" IS DISTINCT FROM NEW."stage" OR OLD."progress" IS DISTINCT FROM NEW."progress"
        OR OLD."previewUrl" IS DISTINCT FROM NEW."previewUrl" OR OLD."results" IS DISTINCT FROM NEW."results")
  EXECUTE FUNCTION "announce_task_change"();
