import { invalidRequest } from './errors.js'

/**
 * storage-api's image transformation options (src/http/schemas/transformations.ts): what the render routes
 * take in the query string and what `POST /object/sign` takes as `transform`, checked the way its JSON
 * schema checks them (ajv's texts: "querystring/width must be integer"), then turned into the segments
 * storage-api sends imgproxy, which it echoes in `X-Transformations`.
 */
export const RESIZE_MODES = ['cover', 'contain', 'fill'] as const
export const FORMATS = ['origin', 'avif', 'webp'] as const
export const GRAVITIES = ['no', 'so', 'ea', 'we', 'noea', 'nowe', 'soea', 'sowe', 'ce', 'sm', 'fp'] as const

export type ResizeMode = (typeof RESIZE_MODES)[number]
export type FormatOption = (typeof FORMATS)[number]
export type Gravity = (typeof GRAVITIES)[number]

export interface TransformOptions {
  width?: number
  height?: number
  resize?: ResizeMode
  format?: FormatOption
  quality?: number
  gravity?: Gravity
  x_offset?: number
  y_offset?: number
}

/**
 * storage-api clamps width and height into its limits instead of refusing them (IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE;
 * Supabase's platform documents 1-2500).
 */
export const MIN_SIZE = 1
export const MAX_SIZE = 2500
/** imgproxy's default quality, which storage-api leaves as is. */
export const DEFAULT_QUALITY = 80

const clampSize = (value: number) => Math.min(Math.max(value, MIN_SIZE), MAX_SIZE)

type Source = Record<string, unknown>

/** A value from the query string (a string, or several when repeated) or from a JSON body. */
function single(source: Source, key: string): unknown {
  const value = source[key]
  return Array.isArray(value) ? (value.length === 1 ? value[0] : value) : value
}

/** ajv's coercion of a query string value to a number: a non-empty string that reads as one. */
function asNumber(value: unknown, fromQuery: boolean): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (fromQuery && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return null
}

function integer(source: Source, key: string, where: string, fromQuery: boolean, min: number, max?: number): number | undefined {
  const raw = single(source, key)
  if (raw === undefined) return undefined
  const value = asNumber(raw, fromQuery)
  if (value === null || !Number.isInteger(value)) throw invalidRequest(`${where}/${key} must be integer`)
  if (value < min) throw invalidRequest(`${where}/${key} must be >= ${min}`)
  if (max !== undefined && value > max) throw invalidRequest(`${where}/${key} must be <= ${max}`)
  return value
}

function number(source: Source, key: string, where: string, fromQuery: boolean): number | undefined {
  const raw = single(source, key)
  if (raw === undefined) return undefined
  const value = asNumber(raw, fromQuery)
  if (value === null) throw invalidRequest(`${where}/${key} must be number`)
  return value
}

function oneOf<T extends string>(source: Source, key: string, where: string, allowed: readonly T[]): T | undefined {
  const raw = single(source, key)
  if (raw === undefined) return undefined
  if (typeof raw !== 'string') throw invalidRequest(`${where}/${key} must be string`)
  if (!(allowed as readonly string[]).includes(raw)) throw invalidRequest(`${where}/${key} must be equal to one of the allowed values`)
  return raw as T
}

/**
 * The options of a render URL's query string (`where` = 'querystring') or of a signing body's `transform`
 * (`where` = 'body/transform'); anything else in there is ignored, as storage-api's schema drops it.
 */
export function parseTransformOptions(source: Source, where: string, fromQuery: boolean): TransformOptions {
  const options: TransformOptions = {
    height: integer(source, 'height', where, fromQuery, 0),
    width: integer(source, 'width', where, fromQuery, 0),
    resize: oneOf(source, 'resize', where, RESIZE_MODES),
    format: oneOf(source, 'format', where, FORMATS),
    quality: integer(source, 'quality', where, fromQuery, 20, 100),
    gravity: oneOf(source, 'gravity', where, GRAVITIES),
    x_offset: number(source, 'x_offset', where, fromQuery),
    y_offset: number(source, 'y_offset', where, fromQuery),
  }
  if (options.gravity === 'fp') {
    for (const key of ['x_offset', 'y_offset'] as const) {
      const value = options[key]
      if (value === undefined) throw invalidRequest(`${where} must have required property '${key}'`)
      if (value < 0) throw invalidRequest(`${where}/${key} must be >= 0`)
      if (value > 1) throw invalidRequest(`${where}/${key} must be <= 1`)
    }
  }
  return stripUndefined(options)
}

/** The query string of a render URL as an object of its values (repeated names kept as arrays, as Fastify parses them). */
export function queryObject(query: URLSearchParams): Source {
  const result: Source = {}
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key)
    result[key] = values.length === 1 ? values[0] : values
  }
  return result
}

/**
 * The transformations a signed URL carries in its token (storage-api's `transformations` claim,
 * `height:200,width:200,resize:cover,quality:60`): the sizes already clamped, as storage-api signs them.
 * An empty list means a plain download URL.
 */
export function signedTransformations(options: TransformOptions): string {
  const segments: string[] = []
  if (options.height) segments.push(`height:${clampSize(options.height)}`)
  if (options.width) segments.push(`width:${clampSize(options.width)}`)
  if ((options.width || options.height) && options.resize) segments.push(`resize:${options.resize}`)
  if (options.quality) segments.push(`quality:${options.quality}`)
  if (options.format && options.format !== 'origin') segments.push(`format:${options.format}`)
  const gravity = gravitySegment(options)
  if (gravity) segments.push(gravity)
  return segments.join(',')
}

/**
 * The options a signed token names, read leniently as storage-api does (unknown names and values are
 * skipped). The token is signed with the project's JWT secret, which its owner holds: every value is
 * still checked, so a hand-made token can ask for nothing a query string could not.
 */
export function parseSignedTransformations(text: string): TransformOptions {
  const options: TransformOptions = {}
  for (const param of text.split(',')) {
    const [name, value, x, y] = param.split(':')
    if (!value) continue
    const int = Number.parseInt(value, 10)
    if (name === 'height' && int > 0) options.height = int
    else if (name === 'width' && int > 0) options.width = int
    else if (name === 'resize' && (RESIZE_MODES as readonly string[]).includes(value)) options.resize = value as ResizeMode
    else if (name === 'format' && (FORMATS as readonly string[]).includes(value)) options.format = value as FormatOption
    else if (name === 'quality' && int >= 20 && int <= 100) options.quality = int
    else if (name === 'gravity' && (GRAVITIES as readonly string[]).includes(value)) {
      const xOffset = x ? Number.parseFloat(x) : Number.NaN
      const yOffset = y ? Number.parseFloat(y) : Number.NaN
      if (value === 'fp' && !(inUnit(xOffset) && inUnit(yOffset))) continue
      options.gravity = value as Gravity
      if (Number.isFinite(xOffset)) options.x_offset = xOffset
      if (Number.isFinite(yOffset)) options.y_offset = yOffset
    }
  }
  return options
}

const inUnit = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1

/** The options with sizes clamped into the limits: what is rendered and what the cache key is made of. */
export function effectiveOptions(options: TransformOptions): TransformOptions {
  return stripUndefined({
    ...options,
    width: options.width ? clampSize(options.width) : undefined,
    height: options.height ? clampSize(options.height) : undefined,
  })
}

/** imgproxy's names for storage-api's resize modes: cover crops (fill), contain fits (fit), fill stretches (force). */
const IMGPROXY_RESIZE: Record<ResizeMode, string> = { cover: 'fill', contain: 'fit', fill: 'force' }

/** The imgproxy segments storage-api answers in `X-Transformations` (height:200,width:200,resizing_type:fill,quality:60). */
export function imgproxySegments(options: TransformOptions): string[] {
  const segments: string[] = []
  if (options.height) segments.push(`height:${clampSize(options.height)}`)
  if (options.width) segments.push(`width:${clampSize(options.width)}`)
  if (options.width || options.height) segments.push(`resizing_type:${IMGPROXY_RESIZE[options.resize ?? 'cover']}`)
  if (options.quality) segments.push(`quality:${options.quality}`)
  if (options.format && options.format !== 'origin') segments.push(`format:${options.format}`)
  const gravity = gravitySegment(options)
  if (gravity) segments.push(gravity)
  return segments
}

function gravitySegment(options: TransformOptions): string | null {
  const { gravity, x_offset: x, y_offset: y } = options
  if (!gravity) return null
  if (gravity === 'sm') return 'gravity:sm'
  if (gravity === 'fp') return `gravity:fp:${x}:${y}`
  return x === undefined && y === undefined ? `gravity:${gravity}` : `gravity:${gravity}:${x ?? 0}:${y ?? 0}`
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key]
  return value
}
