import { describe, expect, it } from 'vitest'
import { signature, signRequest } from '../fakes/sigv4'

// The fake S3 server verifies the AWS SDK's requests with this signer: it must agree with
// the worked examples of AWS's Signature Version 4 documentation (GET and PUT object,
// presigned URL).
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

  it('reproduces the documented presigned URL (query-string authentication)', () => {
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
      'X-Amz-Date': '20130524T000000Z',
      'X-Amz-Expires': '86400',
      'X-Amz-SignedHeaders': 'host',
    })
    const signed = signature(
      { method: 'GET', path: '/test.txt', query, headers: { host: 'examplebucket.s3.amazonaws.com' }, payloadHash: 'UNSIGNED-PAYLOAD' },
      credentials,
      '20130524T000000Z',
    )
    expect(signed.signature).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404')
  })
})
