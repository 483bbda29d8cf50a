-- Hand-written: answers the web processes keep (lib/signals/answer-cache.ts) are dropped when
-- what they were made from changes. Each change sends the answers' scope on the channel
-- aiimg_answers when it commits (PostgreSQL sends a payload once per transaction, however
-- many statements repeat it), and every web process drops that scope's answers on receipt.
CREATE FUNCTION answers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('aiimg_answers', TG_ARGV[0]);
  RETURN NULL;
END $$;

-- The same for the day totals, but only when a row was added or removed: the triggers of
-- migration day_totals insert from every write to their tables, most of which (a task's
-- progress) add nothing, and the worker's folding runs every minute, mostly on nothing.
CREATE FUNCTION answers_changed_if_any() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed) THEN
    PERFORM pg_notify('aiimg_answers', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;

-- The wall (lib/wall/list-wall.ts): a work's shown columns, and its author's name and avatar.
-- The report count is not shown; an update that sets only it (and updatedAt) sends nothing.
CREATE TRIGGER "WallWork_answers_write" AFTER INSERT OR DELETE OR TRUNCATE ON "WallWork"
  FOR EACH STATEMENT EXECUTE FUNCTION answers_changed('wall');
CREATE TRIGGER "WallWork_answers_update" AFTER UPDATE OF
  "id", "taskId", "userId", "status", "featured", "sort", "modelType", "modelName", "imageUrl", "thumbUrl",
  "videoUrl", "durationSec", "width", "height", "prompt", "likes", "listedAt"
  ON "WallWork" FOR EACH STATEMENT EXECUTE FUNCTION answers_changed('wall');
CREATE TRIGGER "User_answers_update" AFTER UPDATE OF "name", "avatar" ON "User" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."avatar" IS DISTINCT FROM NEW."avatar")
  EXECUTE FUNCTION answers_changed('wall');

-- The revenue report and the analysis (lib/analysis/day-totals.ts): their four day totals.
-- Folding (lib/db/compact-counts.ts) replaces deltas by their sums, which give the same
-- answers; it sends too, but only where it had deltas to fold, that is after a write.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['ChargeDayTotal', 'TaskDayCount', 'UserDayCount', 'PointsDayTotal'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION answers_changed_if_any(''reports'')', t || '_answers_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION answers_changed_if_any(''reports'')', t || '_answers_delete', t);
    -- Nothing updates them; a correction made by hand is heard all the same.
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION answers_changed(''reports'')', t || '_answers_other', t);
  END LOOP;
END $$;
