#!/bin/sh
# Writes plants-v1.db and plants-v1-postgres.sql with the release whose jar is $1 (schema version 1), on the
# PostgreSQL server of psql's defaults (PGHOST, PGUSER; database $2). Run from this directory.
set -eu
jar=$1 database=$2 schema=plantstore_v1_fixture token=fixture-token-0001
receiver='http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret#'
receiver=${receiver%#}
export PLANTSTORE_TOKENS=$token PLANTSTORE_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
fill() {
  : > server.log
  java -jar "$jar" --port 0 --drain-seconds 0 --webhook-url "$receiver" --store "$1" > server.log 2>&1 &
  pid=$!
  until port=$(sed -n 's/^plantstore listening on http:\/\/0\.0\.0\.0:\([0-9]*\)$/\1/p' server.log) && [ -n "$port" ]
  do sleep 0.2; done
  for body in '{"id":1,"name":"Monstera","tag":"aroid"}' '{"id":-1,"name":"Fern","tag":null}' \
      '{"id":0,"name":"Moss"}' '{"id":9223372036854775807,"name":"Largest","tag":"max"}' \
      '{"id":-9223372036854775807,"name":"Almost smallest","tag":"min+1"}' \
      '{"id":9007199254740993,"name":"Past 2^53","tag":"js"}' '{"id":77,"name":"Zamioculcas \u00e9t\u00e9 \ud83c\udf3f"}' \
      '{"id":78,"name":"Deleted later","tag":"gone"}' '{"id":-4611686018427387904,"name":"Negative half"}'; do
    curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/plants" -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' -d "$body"
  done
  curl -sf -o /dev/null -X DELETE "http://127.0.0.1:$port/plants/78" -H "Authorization: Bearer $token"
  kill -TERM $pid; wait $pid || true
  rm server.log
}
rm -f plants-v1.db
fill sqlite:plants-v1.db
rm -f plants-v1.db.lock
psql -d "$database" -qc "DROP SCHEMA IF EXISTS $schema CASCADE" -c "CREATE SCHEMA $schema"
fill "jdbc:postgresql://${PGHOST:-127.0.0.1}:5432/$database?user=${PGUSER:-postgres}&currentSchema=$schema"
pg_dump -d "$database" --schema=$schema --no-owner --no-privileges --inserts > plants-v1-postgres.sql
psql -d "$database" -qc "DROP SCHEMA $schema CASCADE"
