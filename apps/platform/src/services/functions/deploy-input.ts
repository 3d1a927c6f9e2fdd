import path from 'node:path'
import { DEFAULT_ENTRYPOINT, FUNCTION_LIMITS, FunctionDeployMetadata, type FunctionDeployMetadata as Metadata } from '@stratum/contracts'
import type { FastifyRequest } from 'fastify'
import { DomainError, invalidInput, parse } from '../../errors.js'

/** The `file://` base of entrypoint_path / import_map_path in answers (store.ts), as the hosted API gives URLs there. */
export const FUNCTION_URL_BASE = 'file:///home/deno/functions'
const FUNCTION_URL_PREFIX = /^file:\/\/\/home\/deno\/functions\/[^/]+\//

/**
 * A file part's name that cannot be a file of the function: Blob parts get 'blob' from FormData (the
 * Management API clients send the source as a Blob), others come without an extension or unusable.
 */
function unusableName(name: string): boolean {
  try {
    const normalized = normalizeFilePath(name)
    return normalized === 'blob' || !/\.[A-Za-z0-9]+$/.test(path.posix.basename(normalized))
  } catch {
    return true
  }
}

/** A deploy's files, checked and normalized, ready to be written. */
export interface DeployInput {
  metadata: Metadata
  entrypoint: string
  files: { name: string; content: Buffer }[]
}

const filesTooLarge = () =>
  invalidInput(`Function files are too large: at most ${FUNCTION_LIMITS.maxFileBytes / 1024 / 1024} MB per file and ${FUNCTION_LIMITS.maxTotalBytes / 1024 / 1024} MB in all`)

/**
 * A relative path inside the function ('index.ts', 'lib/util.ts'). Accepts the CLI's forms
 * ('./index.ts', '/index.ts', 'file:///index.ts'); refuses anything that would leave the directory.
 */
export function normalizeFilePath(raw: string): string {
  // Our own answers' URLs (store.ts functionFileUrl) come back from clients that redeploy what they read.
  let name = raw.trim().replace(FUNCTION_URL_PREFIX, '').replace(/^file:\/\//, '')
  name = name.replace(/^(\.\/|\/)+/, '')
  const segments = name.split('/')
  if (
    !name ||
    name.length > FUNCTION_LIMITS.maxPathLength ||
    name.includes('\\') ||
    name.includes('\0') ||
    segments.some((s) => s === '' || s === '.' || s === '..') ||
    path.posix.normalize(name) !== name
  ) {
    throw invalidInput(`Invalid file name '${raw.slice(0, 300)}': use a relative path without '..'`)
  }
  return name
}

function parseMetadata(text: string): Metadata {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalidInput('metadata must be valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput('metadata must be a JSON object')
  return parse(FunctionDeployMetadata, value)
}

/** Multipart errors of @fastify/multipart and busboy become 400s with their meaning. */
function mapMultipartError(error: unknown): Error {
  if (error instanceof DomainError) return error
  const code = (error as { code?: string }).code ?? ''
  if (code === 'FST_REQ_FILE_TOO_LARGE') return filesTooLarge()
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return invalidInput(`Too many files: a function holds at most ${FUNCTION_LIMITS.maxFiles} files`)
  }
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') return invalidInput('metadata must be valid JSON')
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return invalidInput('Expected a multipart/form-data body with a metadata part and file parts')
  if (code.startsWith('FST_') || /multipart|boundary|Unexpected end of form/i.test((error as Error).message ?? '')) {
    return invalidInput(`Invalid multipart body: ${(error as Error).message}`)
  }
  return error as Error
}

/**
 * Reads the whole form into memory (bounded by the limits) before anything is written, so bad
 * input writes nothing. metadata comes as a plain field or a JSON file part; files come as
 * repeated parts (any field name but metadata), with a filename, or without one for the entrypoint.
 */
export async function readDeployForm(request: FastifyRequest): Promise<DeployInput> {
  if (!request.isMultipart()) throw invalidInput('Expected a multipart/form-data body with a metadata part and file parts')
  let metadataText: string | null = null
  const named: { name: string; content: Buffer }[] = []
  const unnamed: Buffer[] = []
  let total = 0
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await part.toBuffer()
        total += content.length
        if (total > FUNCTION_LIMITS.maxTotalBytes) throw filesTooLarge()
        if (part.fieldname === 'metadata') metadataText = content.toString('utf8')
        else if (part.filename) named.push({ name: part.filename, content })
        else unnamed.push(content)
      } else {
        if (part.valueTruncated) throw filesTooLarge()
        const text = typeof part.value === 'string' ? part.value : JSON.stringify(part.value)
        if (part.fieldname === 'metadata') {
          metadataText = text
          continue
        }
        const content = Buffer.from(text, 'utf8')
        total += content.length
        if (total > FUNCTION_LIMITS.maxTotalBytes) throw filesTooLarge()
        unnamed.push(content)
      }
    }
  } catch (error) {
    throw mapMultipartError(error)
  }
  if (metadataText === null) throw invalidInput('metadata is required: send it as a JSON part named metadata')
  return assembleDeployInput(parseMetadata(metadataText), named, unnamed)
}

/**
 * A deploy's metadata and files, checked and normalized: `named` files come with their path, at most one
 * `unnamed` file (a part without a filename) is the entrypoint. Shared by the multipart route and the
 * AI tools' deploy_edge_function, which sends JSON files.
 */
export function assembleDeployInput(metadata: Metadata, named: { name: string; content: Buffer }[], unnamed: Buffer[]): DeployInput {
  const total = [...named.map((file) => file.content), ...unnamed].reduce((sum, content) => sum + content.length, 0)
  if (total > FUNCTION_LIMITS.maxTotalBytes || named.some((file) => file.content.length > FUNCTION_LIMITS.maxFileBytes)) throw filesTooLarge()
  const entrypoint = normalizeFilePath(metadata.entrypoint_path ?? DEFAULT_ENTRYPOINT)
  // A single file part without a usable name is the entrypoint, as one without a filename is.
  if (unnamed.length === 0 && named.length === 1 && unusableName(named[0]!.name)) unnamed.push(named.pop()!.content)
  if (unnamed.length > 1) throw invalidInput('Only one file part may come without a filename (it is taken as the entrypoint)')

  const files = new Map<string, Buffer>()
  for (const file of named) files.set(normalizeFilePath(file.name), file.content)
  if (unnamed[0]) {
    if (files.has(entrypoint)) throw invalidInput(`A file part without a filename is taken as the entrypoint, but ${entrypoint} was sent too`)
    files.set(entrypoint, unnamed[0])
  }
  if (files.size === 0) throw invalidInput('No files: send the function source as file parts')
  if (files.size > FUNCTION_LIMITS.maxFiles) throw invalidInput(`Too many files: a function holds at most ${FUNCTION_LIMITS.maxFiles} files`)
  for (const name of files.keys()) {
    if ([...files.keys()].some((other) => other.startsWith(`${name}/`))) throw invalidInput(`${name} cannot be both a file and a folder`)
  }
  if (!files.has(entrypoint)) throw invalidInput(`The entrypoint ${entrypoint} is not among the files sent`)
  if (metadata.import_map_path !== undefined && !files.has(normalizeFilePath(metadata.import_map_path))) {
    throw invalidInput(`The import map ${metadata.import_map_path} is not among the files sent`)
  }
  const importMap = metadata.import_map_path === undefined ? {} : { import_map_path: normalizeFilePath(metadata.import_map_path) }
  return { metadata: { ...metadata, ...importMap }, entrypoint, files: [...files].map(([name, content]) => ({ name, content })) }
}
