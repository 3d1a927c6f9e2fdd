/** The part of `qrcode` (which ships no types) that totp.ts uses. */
declare module 'qrcode' {
  interface ToStringOptions {
    type?: 'svg' | 'utf8' | 'terminal'
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'
    margin?: number
  }
  const QRCode: { toString(text: string, options?: ToStringOptions): Promise<string> }
  export default QRCode
}
