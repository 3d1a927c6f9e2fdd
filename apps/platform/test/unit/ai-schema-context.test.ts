import { describe, expect, it } from 'vitest'
import { formatSchemaContext, type SchemaSnapshot } from '../../src/ai/schema-context.js'

type Relation = SchemaSnapshot['relations'][number]

function relation(schema: string, name: string, columns: Array<[string, string]>, extra: Partial<Relation> = {}): Relation {
  return {
    schema,
    name,
    kind: 'r',
    primary_keys: [],
    relationships: [],
    columns: columns.map(([column, format]) => ({ name: column, format })),
    ...extra,
  }
}

const snapshot: SchemaSnapshot = {
  schemas: ['public', 'app'],
  relations: [
    relation('app', 'settings', [['key', 'text']]),
    relation('public', 'orders', [['id', 'int8'], ['customer_id', 'int8'], ['tags', '_text']], {
      primary_keys: [{ schema: 'public', table_name: 'orders', name: 'id', table_id: 2 }],
      relationships: [
        {
          id: 9,
          constraint_name: 'orders_customer_id_fkey',
          source_schema: 'public',
          source_table_name: 'orders',
          source_column_name: 'customer_id',
          target_table_schema: 'public',
          target_table_name: 'customers',
          target_column_name: 'id',
          deletion_action: 'a',
          update_action: 'a',
        },
      ],
    }),
    relation('public', 'customers', [['id', 'int8'], ['name', 'text']]),
    relation('public', 'big_orders', [['id', 'int8']], { kind: 'v' }),
    relation('public', 'order_totals', [['total', 'numeric']], { kind: 'm' }),
    relation('pg_temp_3', 'scratch', [['x', 'int4']]),
  ],
  functions: [
    { schema: 'public', name: 'place_order' },
    { schema: 'app', name: 'touch' },
  ],
}

describe('schema context for the prompt', () => {
  it('lists schemas, tables with typed columns and keys, views and function names, public first', () => {
    expect(formatSchemaContext(snapshot)).toBe(
      [
        'Schemas: public, app',
        'Tables (column type; pk = primary key; -> = foreign key):',
        'public.customers(id int8, name text)',
        'public.orders(id int8 pk, customer_id int8 -> public.customers.id, tags text[])',
        'app.settings(key text)',
        'Views:',
        'public.big_orders(id int8)',
        'public.order_totals(total numeric) materialized',
        'Functions:',
        'public.place_order',
        'app.touch',
      ].join('\n'),
    )
  })

  it('stays within its size cap and says how much it left out', () => {
    const many: SchemaSnapshot = {
      schemas: ['public'],
      relations: Array.from({ length: 2_000 }, (_, i) =>
        relation('public', `table_${String(i).padStart(4, '0')}`, Array.from({ length: 8 }, (_, c) => [`column_${c}`, 'text'] as [string, string])),
      ),
      functions: Array.from({ length: 100 }, (_, i) => ({ schema: 'public', name: `fn_${i}` })),
    }
    const text = formatSchemaContext(many)
    expect(text.length).toBeLessThanOrEqual(12_000)
    expect(text).toContain('public.table_0000(column_0 text')
    expect(text).not.toContain('public.table_1999')
    const shown = text.split('\n').filter((line) => line.startsWith('public.table_')).length
    expect(text.endsWith(`(${2_000 - shown + 100} more not shown)`)).toBe(true)

    const small = formatSchemaContext(many, 500)
    expect(small.length).toBeLessThanOrEqual(500)
    expect(small).toMatch(/more not shown\)$/)
  })

  it('is only the schema list when the database has no objects yet', () => {
    expect(formatSchemaContext({ schemas: ['public'], relations: [], functions: [] })).toBe('Schemas: public')
  })
})
