import { describe, expect, it } from 'vitest'
import { aliyunCanonicalQuery, aliyunPercentEncode, aliyunSignature, aliyunStringToSign } from '@/lib/auth/sms/providers/aliyun-signature'
import { tc3Sign } from '@/lib/auth/sms/providers/tencent-signature'

describe('Aliyun RPC signature (HMAC-SHA1, SignatureVersion 1.0)', () => {
  // The worked example of Aliyun's "签名机制" page: DescribeRegions with AccessKey testid / testsecret.
  const documented = {
    TimeStamp: '2016-02-23T12:46:24Z',
    Format: 'XML',
    AccessKeyId: 'testid',
    Action: 'DescribeRegions',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
    Version: '2014-05-26',
    SignatureVersion: '1.0',
  }

  it('reproduces the documented string to sign and signature', () => {
    expect(aliyunStringToSign('GET', documented)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0%26TimeStamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    )
    expect(aliyunSignature('testsecret', 'GET', documented)).toBe('CT9X0VtwR86fNWSnsc6v8YGOjuE=')
  })

  it('reproduces the example with the later Timestamp spelling', () => {
    const { TimeStamp, ...rest } = documented
    expect(aliyunSignature('testsecret', 'GET', { ...rest, Timestamp: TimeStamp })).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=')
  })

  it('ignores a Signature parameter and sorts by name', () => {
    expect(aliyunCanonicalQuery({ b: '2', Signature: 'x', a: '1', B: '3' })).toBe('B=3&a=1&b=2')
  })

  it("encodes per RFC 3986: space as %20, * as %2A, ~ kept, !'() encoded, UTF-8 bytes", () => {
    expect(aliyunPercentEncode("a b*c~d!e'f(g)h")).toBe('a%20b%2Ac~d%21e%27f%28g%29h')
    expect(aliyunPercentEncode('阿里云')).toBe('%E9%98%BF%E9%87%8C%E4%BA%91')
    expect(aliyunPercentEncode('{"code":"123456"}')).toBe('%7B%22code%22%3A%22123456%22%7D')
  })
})

describe('Tencent Cloud TC3-HMAC-SHA256', () => {
  // The worked example of Tencent Cloud's "签名方法 v3" page (CVM DescribeInstances).
  const payload = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}'
  const signed = tc3Sign({
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
    service: 'cvm',
    timestamp: 1551113065,
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', Host: 'cvm.tencentcloudapi.com' },
    payload,
  })

  it('reproduces the documented canonical request and string to sign', () => {
    expect(signed.canonicalRequest).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    )
    expect(signed.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    )
  })

  it('reproduces the documented signature and Authorization header', () => {
    expect(signed.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168')
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    )
  })

  it('takes the credential date in UTC (00:44 in Beijing is still the day before)', () => {
    // 1551113065 is 2019-02-26 00:44:25 in UTC+8.
    expect(signed.stringToSign.split('\n')[2]).toBe('2019-02-25/cvm/tc3_request')
  })

  it('signs extra headers sorted by name, e.g. x-tc-action', () => {
    const withAction = tc3Sign({
      secretId: 'id',
      secretKey: 'key',
      service: 'sms',
      timestamp: 1700000000,
      method: 'POST',
      headers: { 'X-TC-Action': 'SendSms', Host: 'sms.tencentcloudapi.com', 'Content-Type': 'application/json; charset=utf-8' },
      payload: '{}',
    })
    expect(withAction.authorization).toContain('SignedHeaders=content-type;host;x-tc-action,')
    expect(withAction.canonicalRequest).toContain('host:sms.tencentcloudapi.com\nx-tc-action:sendsms\n')
  })
})
