import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type { Readable } from 'node:stream'
import type { Logger } from 'pino'
import type sharpFunction from 'sharp'
import type { FormatEnum, Metadata, Sharp } from 'sharp'
import { StorageError } from './errors.js'
import type { ObjectFiles } from './files.js'
import { planGeometry } from './image-geometry.js'
import { DEFAULT_QUALITY, effectiveOptions, type TransformOptions } from './image-options.js'
import { TransformCache, type TransformCacheLimits } from './transform-cache.js'
import { WorkQueue } from './work-queue.js'

/**
 * Image transformations as storage-api serves them, rendered in-process with sharp (libvips, prebuilt on
 * the npm registry) where storage-api asks imgproxy. Sources are hostile uploads: their bytes and pixels
 * are limited before anything is decoded, decoding has a deadline, a source libvips cannot read is
 * storage-api's 400, and a failure is an answer, never a crash. Encoding runs on libuv's threads (sharp
 * does), at most `slots` images at once and one per project, so a project cannot hold both cores.
 */

/** storage-api's errors for what imgproxy refuses: `error` is the code, as its handler renders them. */
export class ImageError extends StorageError {
  override body() {
    return { ...super.body(), error: this.code }
  }
}

export const invalidSource = () => new ImageError(400, 'InvalidRequest', 'The source image is invalid or unsupported for rendering')
export const sourceTooLarge = () => new ImageError(400, 'InvalidRequest', 'The source image file is too large to process')
export const resolutionTooLarge = () => new ImageError(400, 'InvalidRequest', 'The source image resolution is too large to process')
const timedOut = () => new ImageError(408, 'InvalidRequest', 'Image request timed out')
const tooManyRequests = () => new ImageError(429, 'InvalidRequest', 'Too many requests')

export interface ImageLimits {
  /** The largest source file rendered (Supabase: 25 MB). */
  maxSourceBytes: number
  /** The most pixels a source may have (Supabase: 50 megapixels); checked from the header, then by libvips while decoding. */
  maxSourcePixels: number
  /** How long one rendering may take. */
  timeoutSeconds: number
  /** Renderings at once on the whole platform, and for one project. */
  slots: number
  perProject: number
  /** Renderings a project may have waiting before it is answered 429. */
  maxWaiting: number
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxSourceBytes: 25 * 1000 * 1000,
  maxSourcePixels: 50_000_000,
  timeoutSeconds: 20,
  slots: 2,
  perProject: 1,
  maxWaiting: 64,
}

export const DEFAULT_CACHE_LIMITS: TransformCacheLimits = { maxProjectBytes: 256 * 1024 * 1024, maxProjectEntries: 10_000 }

/** Formats written: what the client asked for, or the source's own when libvips can write it. */
type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff'

const EXTENSIONS: Record<OutputFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif', tiff: 'tiff' }
const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif', tiff: 'image/tiff' }

/** Sources rendered (sharp's names; AVIF reads as heif): the formats imgproxy takes that the prebuilt libvips reads. */
const READABLE = new Set<keyof FormatEnum | string>(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'svg'])

/** Bumped when the rendering changes, so renderings cached by an older one are not served. */
const RENDERER_VERSION = 1

export interface RenderedImage {
  contentType: string
  size: number
  /** A rendering made for this request, or a cached one being read. */
  data?: Buffer
  stream?: Readable
}

/** sharp's function (the CommonJS module's export, the default export of its ES import). */
type SharpModule = typeof sharpFunction

export class ImageTransforms {
  private readonly cache: TransformCache
  private readonly queue: WorkQueue
  private readonly inflight = new Map<string, Promise<RenderedImage>>()
  private sharp: Promise<SharpModule> | null = null

  constructor(
    private readonly files: ObjectFiles,
    private readonly log: Logger,
    readonly limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
    cacheLimits: TransformCacheLimits = DEFAULT_CACHE_LIMITS,
  ) {
    this.cache = new TransformCache(files, cacheLimits, log)
    this.queue = new WorkQueue(limits.slots, limits.perProject, limits.maxWaiting, tooManyRequests)
  }

  /**
   * The rendering of one object version: from the cache, or made (once, however many ask at the same
   * time) and kept. `acceptsWebp`: the client's Accept names image/webp (imgproxy's WebP detection, which
   * picks the format when the options name none).
   */
  async render(ref: string, version: string, options: TransformOptions, acceptsWebp: boolean): Promise<RenderedImage> {
    const wanted = effectiveOptions(options)
    const target = wanted.format ?? (acceptsWebp ? 'webp' : 'origin')
    const key = createHash('sha256')
      .update(JSON.stringify([RENDERER_VERSION, wanted.width, wanted.height, wanted.resize, wanted.quality, target, wanted.gravity, wanted.x_offset, wanted.y_offset]))
      .digest('hex')
      .slice(0, 32)
    const cached = await this.cache.get(ref, version, key)
    if (cached) {
      // Opened here: a cached file trimmed or removed after this is still read whole; one gone already is made again.
      const handle = await fs.promises.open(cached.file, 'r').catch(() => null)
      const size = handle && (await handle.stat().then((stats) => stats.size, () => null))
      if (handle && size !== null) return { contentType: CONTENT_TYPES[cached.extension] ?? 'application/octet-stream', size, stream: handle.createReadStream() }
      await handle?.close()
    }
    const id = `${ref}/${version}/${key}`
    let pending = this.inflight.get(id)
    if (!pending) {
      pending = this.make(ref, version, key, wanted, target).finally(() => this.inflight.delete(id))
      this.inflight.set(id, pending)
    }
    return pending
  }

  private async make(ref: string, version: string, key: string, options: TransformOptions, target: 'origin' | 'webp' | 'avif'): Promise<RenderedImage> {
    const size = this.files.sizeOf(ref, version)
    if (size === null) throw new StorageError(404, 'NoSuchKey', 'Object not found')
    if (size > this.limits.maxSourceBytes) throw sourceTooLarge()
    const sharp = await this.loadSharp()
    const { data, format } = await this.queue.run(ref, () => this.encode(sharp, this.files.pathOf(ref, version), options, target)).catch((error: unknown) => {
      // Removed or replaced while it waited for a slot: gone, not a bad image.
      throw this.files.exists(ref, version) ? error : new StorageError(404, 'NoSuchKey', 'Object not found')
    })
    const extension = EXTENSIONS[format]
    try {
      await this.cache.put(ref, version, key, extension, data)
    } catch (error) {
      // Served all the same; only the next request renders it again.
      this.log.warn({ err: error, ref }, 'storage: an image rendering was not cached')
    }
    return { contentType: CONTENT_TYPES[extension]!, size: data.length, data }
  }

  private async encode(sharp: SharpModule, file: string, options: TransformOptions, target: 'origin' | 'webp' | 'avif'): Promise<{ data: Buffer; format: OutputFormat }> {
    // One page (the first frame of an animation), decoded as read, refused past the pixel limit while decoding too.
    const image = sharp(file, { limitInputPixels: this.limits.maxSourcePixels, sequentialRead: true, animated: false, failOn: 'error' })
    let metadata: Metadata
    try {
      metadata = await image.metadata()
    } catch (error) {
      throw sourceError(error)
    }
    const { width, height } = metadata
    if (!metadata.format || !READABLE.has(metadata.format) || !width || !height) throw invalidSource()
    if (width * height > this.limits.maxSourcePixels) throw resolutionTooLarge()
    const rotated = (metadata.orientation ?? 1) >= 5
    const geometry = planGeometry(rotated ? height : width, rotated ? width : height, options)
    const format = target === 'origin' ? originFormat(metadata) : target
    const quality = options.quality ?? DEFAULT_QUALITY
    // EXIF orientation applied, as imgproxy does; metadata (EXIF, XMP) is not copied to the output.
    let pipeline: Sharp = image.rotate()
    if (geometry.resize) pipeline = pipeline.resize(geometry.resize.width, geometry.resize.height, { fit: 'fill' })
    if (geometry.crop) pipeline = pipeline.extract(geometry.crop)
    if (geometry.smart) pipeline = pipeline.resize(geometry.smart.width, geometry.smart.height, { fit: 'cover', position: sharp.strategy.attention })
    if (format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality })
    else if (format === 'png') pipeline = pipeline.png()
    else if (format === 'webp') pipeline = pipeline.webp({ quality })
    // A low effort: AVIF's encoder is the slowest by far, and the cores are shared.
    else if (format === 'avif') pipeline = pipeline.avif({ quality, effort: 2 })
    else if (format === 'gif') pipeline = pipeline.gif()
    else pipeline = pipeline.tiff({ quality })
    try {
      const data = await pipeline.timeout({ seconds: this.limits.timeoutSeconds }).toBuffer()
      return { data, format }
    } catch (error) {
      throw sourceError(error)
    }
  }

  /** sharp, loaded on first use: the platform starts (and serves everything else) where its binary cannot load. */
  private loadSharp(): Promise<SharpModule> {
    if (this.sharp) return this.sharp
    const loading = import('sharp').then(
      (loaded) => {
        // A CommonJS module: its export is the ES import's default.
        const sharp = ((loaded as { default?: unknown }).default ?? loaded) as SharpModule
        // One libvips thread per image (the queue decides how many images), and no libvips operation cache:
        // renderings are cached on disk, and decoded sources held in memory would only grow.
        sharp.concurrency(1)
        sharp.cache(false)
        return sharp
      },
      (error: unknown) => {
        this.sharp = null
        this.log.error({ err: error }, 'storage: sharp (image transformations) could not be loaded')
        throw new StorageError(501, 'NotImplemented', 'Image transformations are not available on this platform: the image library could not be loaded')
      },
    )
    this.sharp = loading
    return loading
  }
}

/** The output format for `format=origin` (or no format and no WebP in Accept): the source's own, else PNG. */
function originFormat(metadata: Metadata): OutputFormat {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
    case 'tiff':
      return metadata.format
    case 'heif':
      // The prebuilt libvips writes AV1 (AVIF) only, not HEVC.
      return metadata.compression === 'av1' ? 'avif' : 'png'
    default:
      // SVG is rasterised: a rendering never serves a document that could run script.
      return 'png'
  }
}

/** What libvips said about a source, as storage-api answers imgproxy's refusals. */
function sourceError(error: unknown): Error {
  if (error instanceof StorageError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (/pixel limit/i.test(message)) return resolutionTooLarge()
  if (/timeout/i.test(message)) return timedOut()
  return invalidSource()
}
