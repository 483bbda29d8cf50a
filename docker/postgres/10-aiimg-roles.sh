#!/bin/sh
# Creates the owner and app roles (docker/postgres/roles.sql) in POSTGRES_DB. The postgres
# image runs it once, when the database volume is first created. For a volume made before
# these roles existed, run it by hand once (it is safe to repeat):
#   docker compose exec db sh /docker-entrypoint-initdb.d/10-aiimg-roles.sh
# Role names and passwords come from the db service's environment (docker-compose.yml).
set -e
: "${AIIMG_OWNER_ROLE:?is not set}" "${AIIMG_OWNER_PASSWORD:?is not set}" "${AIIMG_APP_ROLE:?is not set}" "${AIIMG_APP_PASSWORD:?is not set}"

psql -v ON_ERROR_STOP=1 --quiet --no-psqlrc --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-${POSTGRES_USER:-postgres}}" \
  -v owner_role="$AIIMG_OWNER_ROLE" -v owner_password="$AIIMG_OWNER_PASSWORD" \
  -v app_role="$AIIMG_APP_ROLE" -v app_password="$AIIMG_APP_PASSWORD" <<'SQL'
SET aiimg.owner_role = :'owner_role';
SET aiimg.owner_password = :'owner_password';
SET aiimg.app_role = :'app_role';
SET aiimg.app_password = :'app_password';
\i /etc/aiimg/roles.sql
SQL
