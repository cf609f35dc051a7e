/**
 * The strings WeChat Pay signs and the Authorization header, as the official SDKs build
 * them: wechatpay-go `core/consts/const.go` (SignatureMessageFormat
 * "%s\n%s\n%d\n%s\n%s\n", HeaderAuthorizationFormat) and
 * `core/auth/validators/wechat_pay_validator.go` (buildMessage "%d\n%s\n%s\n"),
 * wechatpay-php `src/Formatter.php` (joinedByLineFeed). Every line ends in "\n", the last too.
 */

export const signatureType = "WECHATPAY2-SHA256-RSA2048";

/** Method, path with query (no host), unix seconds, nonce, the exact body sent ("" for GET). */
export function requestSignatureMessage(
  method: string,
  pathAndQuery: string,
  timestamp: number | string,
  nonce: string,
  body: string,
): string {
  return `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** What WeChat Pay signs in an answer or a notification: the raw body, "" for a 204. */
export function answerSignatureMessage(timestamp: number | string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** JSAPI `getBrandWCPayRequest`: appId, timeStamp, nonceStr, package (wechatpay-go `services/payments/jsapi/api_jsapi_request_payment.go`). */
export function paySignMessage(appId: string, timeStamp: string, nonceStr: string, packageValue: string): string {
  return `${appId}\n${timeStamp}\n${nonceStr}\n${packageValue}\n`;
}

export function authorizationHeader(token: {
  mchid: string;
  nonce: string;
  timestamp: number | string;
  serial: string;
  signature: string;
}): string {
  return `${signatureType} mchid="${token.mchid}",nonce_str="${token.nonce}",timestamp="${token.timestamp}",serial_no="${token.serial}",signature="${token.signature}"`;
}
