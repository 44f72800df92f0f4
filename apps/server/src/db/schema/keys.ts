import { type AnyPgColumn, integer } from 'drizzle-orm/pg-core';

/*
 * Foreign keys many tables write the same way. No table is imported here, so every schema file
 * (identity.ts included) may use these without an import cycle.
 */

/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const parentKey = (name: string, parent: () => AnyPgColumn) =>
  integer(name).notNull().references(parent, { onDelete: 'cascade' });
