/**
 * The ClickHouse Cloud-compatible management domain: organizations and API keys (secrets kept only
 * as salted hashes), with the bootstrap organization and admin key created on first start; services
 * with their validation rules, warehouses and asynchronous lifecycle; and the HTTP routes that
 * serve them. Request bodies are read field by field so that one 400 names every problem with its
 * path.
 */
package dev.chartwell.server.management;
