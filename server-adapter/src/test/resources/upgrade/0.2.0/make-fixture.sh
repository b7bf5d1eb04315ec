#!/bin/bash
# Builds the 0.2.0 upgrade fixture: run from anywhere, JAR=<0.2.0 chartwell-server.jar> OUT=<dir>
set -euo pipefail
JAR=${JAR:?}; OUT=${OUT:?}
mkdir -p "$OUT/answers"
DATA=$(mktemp -d)/data
PORT=18090
ORG=3f2504e0-4f89-41d3-9a0c-0305e82c3301
java -jar "$JAR" --port $PORT --data-dir "$DATA" --org-id $ORG --api-key ADMIN:fixture-secret-1 \
  --max-memory 16m > "${TMPDIR:-/tmp}/chartwell-0.2.0-fixture.log" 2>&1 &
PID=$!
until curl -sf http://127.0.0.1:$PORT/health >/dev/null; do sleep 0.2; done
A="-u ADMIN:fixture-secret-1"; J='Content-Type: application/json'
BASE=http://127.0.0.1:$PORT/v1/organizations/$ORG
svc=$(curl -sf $A -H "$J" -d '{"name":"Observability","provider":"aws","region":"eu-west-1","tags":[{"key":"env","value":"prod"}]}' $BASE/services)
SERVICE=$(echo "$svc" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["service"]["id"])')
TOKEN=$(echo "$svc" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["password"])')
until curl -sf $A $BASE/services/$SERVICE | grep -q '"running"'; do sleep 0.2; done
curl -sf $A -H "$J" -d '{"name":"ci","roles":["developer"],"expireAt":"2030-01-01T00:00:00Z","ipAccessList":[{"source":"127.0.0.1","description":"this machine"}]}' $BASE/keys > "$OUT/developer-key.json"
CS=$BASE/services/$SERVICE/clickstack
src=$(curl -sf $A -H "$J" -d '{"name":"Logs","kind":"log","connection":"default","from":{"databaseName":"default","tableName":"otel_logs"},"timestampValueExpression":"Timestamp","serviceNameExpression":"ServiceName","severityTextExpression":"SeverityText","bodyExpression":"Body","implicitColumnExpression":"Body"}' $CS/sources)
SOURCE=$(echo "$src" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["id"])')
V2=http://127.0.0.1:$PORT/api/v2; B="Authorization: Bearer $TOKEN"
gen() { python3 - "$1" "$2" <<'PY'
import sys, json
start, n = int(sys.argv[1]), int(sys.argv[2])
svcs = ["api", "web", "checkout", "db"]; sev = ["info", "info", "warn", "error"]
for i in range(start, start + n):
    print(json.dumps({"Timestamp": 1795000000000 + i * 1000, "ServiceName": svcs[i % 4],
                      "SeverityText": sev[(i // 4) % 4], "Body": "request %d took %d ms" % (i, i % 97)}))
PY
}
# Sealed: enough events to fill a 1 MB head (--max-memory 16m) a few times over.
for k in 0 1 2; do
  gen $((k * 10000)) 10000 | curl -sf -H "$B" -H 'Content-Type: application/x-ndjson' --data-binary @- $V2/sources/$SOURCE/events > /dev/null
done
until curl -sf -H "$B" $V2/stats | python3 -c 'import json,sys;s=json.load(sys.stdin)["data"]["sources"][0];sys.exit(0 if s["segments"]>=1 and s["sealBacklog"]==0 else 1)'; do sleep 0.2; done
curl -sf -H "$B" -H "$J" -d '{"name":"Production ClickHouse","host":"https://clickhouse.example.com:8443","username":"reader","password":"my-secret-password"}' $V2/connections > /dev/null
wh=$(curl -sf $A -H "$J" -d '{"name":"on-call","service":"generic","url":"https://hooks.example.com/chartwell","headers":{"X-Token":"abc"},"queryParams":{"key":"q-secret"}}' $CS/webhooks)
WEBHOOK=$(echo "$wh" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["id"])')
db=$(curl -sf $A -H "$J" -d "{\"name\":\"Checkout\",\"tags\":[\"prod\"],\"tiles\":[{\"name\":\"Errors\",\"x\":0,\"y\":0,\"w\":12,\"h\":4,\"config\":{\"displayType\":\"line\",\"sourceId\":\"$SOURCE\",\"select\":[{\"aggFn\":\"count\",\"where\":\"SeverityText:error\"}],\"groupBy\":\"ServiceName\"}}]}" $CS/dashboards)
DASH=$(echo "$db" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["id"])')
TILE=$(echo "$db" | python3 -c 'import json,sys;print(json.load(sys.stdin)["result"]["tiles"][0]["id"])')
ss=$(curl -sf $A -H "$J" -d "{\"name\":\"Checkout errors\",\"sourceId\":\"$SOURCE\",\"where\":\"SeverityText:error ServiceName:checkout\",\"select\":\"Timestamp, ServiceName, Body\",\"orderBy\":\"Timestamp DESC\",\"tags\":[\"prod\"]}" $CS/saved-searches)
curl -sf $A -H "$J" -d "{\"dashboardId\":\"$DASH\",\"tileId\":\"$TILE\",\"source\":\"tile\",\"threshold\":100,\"thresholdType\":\"above\",\"interval\":\"5m\",\"channel\":{\"type\":\"webhook\",\"webhookId\":\"$WEBHOOK\"},\"name\":\"Too many errors\"}" $CS/alerts > /dev/null
curl -sf $A -H "$J" -d '{"name":"Deploy Bot","description":"Manages dashboards","permissions":[{"action":"manage","subject":"Dashboard"}]}' $CS/roles > /dev/null
# Unsealed: in the write-ahead log only.
gen 30000 700 | curl -sf -H "$B" -H 'Content-Type: application/x-ndjson' --data-binary @- $V2/sources/$SOURCE/events > /dev/null
curl -sf -H "$B" $V2/stats > "$OUT/stats-final.json"
# The answers the current server must give unchanged.
curl -sf $A $BASE > "$OUT/answers/organization.json"
curl -sf $A $BASE/keys > "$OUT/answers/keys.json"
curl -sf $A $BASE/services > "$OUT/answers/services.json"
for r in sources dashboards alerts webhooks saved-searches roles; do curl -sf $A $CS/$r > "$OUT/answers/$r.json"; done
curl -sf -H "$B" $V2/connections > "$OUT/answers/connections.json"
curl -sf -H "$B" -H "$J" -d "{\"series\":[{\"sourceId\":\"$SOURCE\",\"aggFn\":\"count\",\"where\":\"\"}],\"startTime\":1794000000000,\"endTime\":1796000000000,\"granularity\":\"auto\"}" $V2/charts/series > "$OUT/answers/count.json" || true
echo "{\"organization\":\"$ORG\",\"service\":\"$SERVICE\",\"token\":\"$TOKEN\",\"source\":\"$SOURCE\",\"webhook\":\"$WEBHOOK\",\"dashboard\":\"$DASH\"}" > "$OUT/ids.json"
kill -TERM $PID; wait $PID || true
rm -f "$OUT/data.zip"; (cd "$(dirname "$DATA")" && zip -qr -X "$OUT/data.zip" data)
du -sh "$DATA"
