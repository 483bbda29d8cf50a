import { describe, expect, it } from 'vitest'
import { signRequest } from '@/lib/storage/sigv4'

// The worked example of AWS's "Signature Version 4 — GET object" documentation.
const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' }

describe('signRequest (AWS SigV4)', () => {
  it('reproduces the documented GET object signature', () => {
    const headers = signRequest(
      { method: 'GET', path: '/test.txt', headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9' } },
      credentials,
      new Date('2013-05-24T00:00:00Z'),
    )
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })

  it('reproduces the documented PUT object signature', () => {
    const headers = signRequest(
      {
        method: 'PUT',
        path: '/test$file.text',
        headers: { host: 'examplebucket.s3.amazonaws.com', date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
        body: Buffer.from('Welcome to Amazon S3.'),
      },
      credentials,
      new Date('2013-05-24T00:00:00Z'),
    )
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    )
  })
})
