-- The two roles of a production database, run as the superuser in the app's database:
--   owner: owns the schema and everything in it; migrations run as it (migrate service,
--          MIGRATION_DATABASE_URL). It can log in but is not a superuser.
--   app:   what web and worker connect as (DATABASE_URL): reads and writes rows
--          (SELECT, INSERT, UPDATE, DELETE, sequences), nothing else: no TRUNCATE, no DDL,
--          no ALTER TABLE ... DISABLE TRIGGER, so the append-only ledger and audit log
--          triggers hold against it.
-- Reads the settings aiimg.owner_role, aiimg.owner_password, aiimg.app_role and
-- aiimg.app_password (docker/postgres/10-aiimg-roles.sh sets them; by hand, in psql:
-- SET aiimg.owner_role = 'aiimg_owner'; ... then \i roles.sql). Safe to run again: it
-- also hands the objects of an older installation (made by the superuser) to the owner.
DO $roles$
DECLARE
  owner_role text := current_setting('aiimg.owner_role');
  app_role text := current_setting('aiimg.app_role');
  item record;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = owner_role) THEN
    EXECUTE format('CREATE ROLE %I', owner_role);
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = app_role) THEN
    EXECUTE format('CREATE ROLE %I', app_role);
  END IF;
  EXECUTE format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
    owner_role, current_setting('aiimg.owner_password'));
  EXECUTE format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD %L',
    app_role, current_setting('aiimg.app_password'));

  -- Only these roles (and the superuser) reach the database; only the owner creates in it.
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT, CREATE, TEMPORARY ON DATABASE %I TO %I', current_database(), owner_role);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), app_role);
  EXECUTE format('ALTER SCHEMA public OWNER TO %I', owner_role);
  REVOKE CREATE ON SCHEMA public FROM PUBLIC;
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', app_role);

  -- Objects an older installation made as the superuser pass to the owner (sequences
  -- that belong to a column follow their table).
  FOR item IN
    SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'S')
      AND pg_get_userbyid(c.relowner) <> owner_role
      AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))
  LOOP
    EXECUTE format(CASE WHEN item.relkind = 'S' THEN 'ALTER SEQUENCE %s OWNER TO %I' ELSE 'ALTER TABLE %s OWNER TO %I' END, item.name, owner_role);
  END LOOP;
  FOR item IN
    SELECT t.oid::regtype AS name FROM pg_type t
    WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd') AND pg_get_userbyid(t.typowner) <> owner_role
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO %I', item.name, owner_role);
  END LOOP;
  FOR item IN
    SELECT p.oid::regprocedure AS name FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p') AND pg_get_userbyid(p.proowner) <> owner_role
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO %I', item.name, owner_role);
  END LOOP;

  -- The app's rights on what exists now and on whatever the owner's migrations create.
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', app_role);
  EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO %I', app_role);
  EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO %I', owner_role, app_role);
  EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public GRANT USAGE ON SEQUENCES TO %I', owner_role, app_role);
END
$roles$;
