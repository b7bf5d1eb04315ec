/**
 * Backups of a data directory while the server runs ({@code POST /api/v2/admin/backup}) or while it
 * is stopped ({@code chartwell-server.jar backup}), and restoring one into a new data directory
 * ({@code chartwell-server.jar restore}): see {@code docs/operations.md}.
 */
package dev.chartwell.server.backup;
