/**
 * Durable state under {@code --data-dir}: the locked directory itself and JSON documents in
 * Chronicle Map files, which survive a crash of the process.
 */
package dev.chartwell.server.store;
