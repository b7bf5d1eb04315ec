/**
 * The ClickHouse Cloud-compatible management domain: organizations and API keys (secrets kept only
 * as salted hashes), with the bootstrap organization and admin key created on first start.
 */
package dev.chartwell.server.management;
