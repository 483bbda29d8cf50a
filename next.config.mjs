/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native and WebAssembly packages, the one that finds the FFmpeg binary, and the payment SDKs
  // (with their HTTP clients) are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    '@node-rs/argon2',
    'sharp',
    'pg',
    '@prisma/adapter-pg',
    '@electric-sql/pglite',
    '@ffmpeg-installer/ffmpeg',
    'wechatpay-node-v3',
    'alipay-sdk',
  ],
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
        ],
      },
    ]
  },
}

export default nextConfig
