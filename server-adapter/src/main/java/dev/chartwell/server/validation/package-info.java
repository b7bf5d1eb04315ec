/**
 * Rules every request shares, whatever resource it names: what a name, a field name or a source
 * expression may hold and how long it may be.
 */
package dev.chartwell.server.validation;
