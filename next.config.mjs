/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Native and WebAssembly packages (and the one that finds the FFmpeg binary) are loaded by Node at run time, not bundled.
  serverExternalPackages: ['@node-rs/argon2', 'sharp', 'pg', '@prisma/adapter-pg', '@electric-sql/pglite', '@ffmpeg-installer/ffmpeg'],
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
