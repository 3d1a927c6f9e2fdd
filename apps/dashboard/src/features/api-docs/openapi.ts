import type { OpenApiDocument, SwaggerDefinition, SwaggerParameter } from '@stratum/contracts'

/** One column of a table or view, as the REST API document describes it. */
export interface DocColumn {
  name: string
  type: string
  format: string
  description: string
  required: boolean
}

export interface DocTable {
  name: string
  description: string
  columns: DocColumn[]
  /**
   * Whether the API offers writes: PostgREST documents insert, update and delete for every table and
   * writable view, whatever the role's privileges (a role without the grant gets a permission error).
   */
  canInsert: boolean
  canUpdate: boolean
  canDelete: boolean
}

export interface DocProcedure {
  name: string
  path: string
  description: string
  params: DocColumn[]
}

/**
 * A column description without PostgREST's key markers: the 'Note:' line and the <pk/> and
 * <fk table='t' column='c'/> tags go, the readable sentences ('This is a Primary Key.') stay.
 */
export function trimNotes(description: string | undefined): string {
  if (!description) return ''
  return description
    .replace(/<pk\/>|<fk [^>]*\/>/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'Note:')
    .join(' ')
}

function columnsOf(definition: SwaggerDefinition | undefined): DocColumn[] {
  const required = new Set(definition?.required ?? [])
  return Object.entries(definition?.properties ?? {}).map(([name, property]) => ({
    name,
    type: property.type ?? '',
    format: property.format,
    description: trimNotes(property.description),
    required: required.has(name),
  }))
}

/** Tables and views: one per definition, sorted by name. */
export function tablesOf(document: OpenApiDocument | undefined): DocTable[] {
  if (!document) return []
  return Object.entries(document.definitions ?? {})
    .map(([name, definition]) => {
      const path = document.paths[`/${name}`]
      return {
        name,
        description: definition.description ?? '',
        columns: columnsOf(definition),
        canInsert: Boolean(path?.post),
        canUpdate: Boolean(path?.patch),
        canDelete: Boolean(path?.delete),
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

function isBodyParameter(parameter: unknown): parameter is SwaggerParameter {
  return typeof parameter === 'object' && parameter !== null && (parameter as SwaggerParameter).in === 'body'
}

/** Stored procedures: one per /rpc/{name} path, sorted by name, arguments from the POST body schema. */
export function proceduresOf(document: OpenApiDocument | undefined): DocProcedure[] {
  if (!document) return []
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/rpc/'))
    .map(([path, item]) => {
      const operation = item.post ?? item.get
      const body = operation?.parameters?.find(isBodyParameter)
      const schema = body?.schema && !('$ref' in body.schema) ? body.schema : undefined
      return {
        name: path.slice('/rpc/'.length),
        path,
        description: [operation?.summary, operation?.description].filter(Boolean).join('\n'),
        params: columnsOf(schema),
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}
