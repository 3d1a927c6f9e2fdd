import type { Gravity, TransformOptions } from './image-options.js'

/**
 * Output sizes as imgproxy (storage-api's renderer) computes them with its defaults: never enlarged
 * (enlarge off), cover scales to fill and crops at the gravity, contain scales to fit inside (no padding:
 * imgproxy's extend is off too), fill stretches to the size asked for, one side alone keeps the aspect
 * ratio whatever the mode.
 */
export interface Geometry {
  /** The size the whole image is scaled to, or null to keep it. */
  resize: { width: number; height: number } | null
  /** The part of the scaled image kept (cover), or null for all of it. */
  crop: { left: number; top: number; width: number; height: number } | null
  /** Cover with smart gravity: libvips picks the crop (attention strategy) at `resize`'s scale. */
  smart: { width: number; height: number } | null
}

const atLeastOne = (value: number) => Math.max(1, Math.round(value))

/** `width` and `height` of the source as displayed (after its EXIF orientation). */
export function planGeometry(width: number, height: number, options: TransformOptions): Geometry {
  const none: Geometry = { resize: null, crop: null, smart: null }
  const w = options.width ?? 0
  const h = options.height ?? 0
  if (!w && !h) return none
  const scaled = (scale: number) => ({ width: atLeastOne(width * scale), height: atLeastOne(height * scale) })
  const keep = (size: { width: number; height: number }): Geometry =>
    size.width === width && size.height === height ? none : { resize: size, crop: null, smart: null }
  if (!w || !h) return keep(scaled(Math.min(w ? w / width : h / height, 1)))
  const mode = options.resize ?? 'cover'
  if (mode === 'contain') return keep(scaled(Math.min(w / width, h / height, 1)))
  if (mode === 'fill') return keep({ width: Math.min(w, width), height: Math.min(h, height) })
  const size = scaled(Math.min(Math.max(w / width, h / height), 1))
  const cropWidth = Math.min(w, size.width)
  const cropHeight = Math.min(h, size.height)
  if (options.gravity === 'sm') return { resize: null, crop: null, smart: { width: cropWidth, height: cropHeight } }
  const resize = size.width === width && size.height === height ? null : size
  if (cropWidth === size.width && cropHeight === size.height) return { resize, crop: null, smart: null }
  const { left, top } = cropPosition(size, { width: cropWidth, height: cropHeight }, options)
  return { resize, crop: { left, top, width: cropWidth, height: cropHeight }, smart: null }
}

const WEST = new Set<Gravity>(['we', 'nowe', 'sowe'])
const EAST = new Set<Gravity>(['ea', 'noea', 'soea'])
const NORTH = new Set<Gravity>(['no', 'noea', 'nowe'])
const SOUTH = new Set<Gravity>(['so', 'soea', 'sowe'])

/**
 * Where the crop sits: at the gravity's edge or the centre, moved by the offsets (below 1 a share of the
 * scaled side, from 1 pixels, as storage-api documents them), or centred on the focal point (fp); always
 * inside the image.
 */
function cropPosition(image: { width: number; height: number }, crop: { width: number; height: number }, options: TransformOptions) {
  const spareX = image.width - crop.width
  const spareY = image.height - crop.height
  const gravity = options.gravity ?? 'ce'
  const offset = (value: number | undefined, side: number) => (value === undefined ? 0 : Math.abs(value) < 1 ? value * side : value)
  let left: number
  let top: number
  if (gravity === 'fp') {
    left = (options.x_offset ?? 0.5) * image.width - crop.width / 2
    top = (options.y_offset ?? 0.5) * image.height - crop.height / 2
  } else {
    const dx = offset(options.x_offset, image.width)
    const dy = offset(options.y_offset, image.height)
    left = WEST.has(gravity) ? dx : EAST.has(gravity) ? spareX - dx : spareX / 2 + dx
    top = NORTH.has(gravity) ? dy : SOUTH.has(gravity) ? spareY - dy : spareY / 2 + dy
  }
  const clamp = (value: number, max: number) => Math.min(Math.max(Math.round(value), 0), max)
  return { left: clamp(left, spareX), top: clamp(top, spareY) }
}
