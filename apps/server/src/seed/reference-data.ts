/**
 * Reference data every database needs: roles, the metrics catalogue, filter field definitions and
 * their options. Idempotent: existing rows are kept, missing ones are added.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { fieldDefinitions, fieldOptions, metrics, roles } from '../db/schema.ts';
import { FIELD_DEFINITIONS, METRICS, ROLES } from './catalogue.ts';

/** Roles, metrics, field definitions and field options; safe to run any number of times. */
export async function seedReferenceData(database: Database): Promise<void> {
  const { db } = database;
  await db
    .insert(roles)
    .values(ROLES.map((role) => ({ ...role })))
    .onConflictDoNothing();
  await db
    .insert(metrics)
    .values(
      METRICS.map((m) => ({
        id: m.id,
        name: m.name,
        label: m.label,
        metricType: m.metricType,
        kind: m.kind,
        chartOrder: m.chartOrder,
        required: m.required,
      })),
    )
    .onConflictDoNothing();

  for (const [order, definition] of FIELD_DEFINITIONS.entries()) {
    const existing = await db
      .select({ id: fieldDefinitions.id })
      .from(fieldDefinitions)
      .where(
        and(
          eq(fieldDefinitions.field, definition.field),
          eq(fieldDefinitions.fieldGroup, definition.fieldGroup),
        ),
      )
      .limit(1);
    let fieldId = existing[0]?.id;
    if (fieldId === undefined) {
      const inserted = await db
        .insert(fieldDefinitions)
        .values({
          field: definition.field,
          fieldGroup: definition.fieldGroup,
          label: definition.label,
          type: definition.type,
          multivalue: definition.multivalue ?? false,
          editable: definition.editable ?? true,
          tagGroup: definition.tagGroup ?? null,
          sortOrder: order,
        })
        .returning({ id: fieldDefinitions.id });
      fieldId = inserted[0]?.id;
    }
    if (fieldId === undefined)
      throw new Error(`Could not create field ${definition.fieldGroup}.${definition.field}`);
    const options = definition.options ?? [];
    if (options.length === 0) continue;
    await db
      .insert(fieldOptions)
      .values(
        options.map((option, i) => ({
          fieldId: fieldId as number,
          value: option.value,
          label: option.label ?? option.value,
          parentValue: option.parentValue ?? null,
          sortOrder: i,
        })),
      )
      .onConflictDoNothing();
  }
}
