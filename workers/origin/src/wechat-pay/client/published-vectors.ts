/**
 * Test vectors WeChat Pay publishes in its documentation (the sample merchant key of
 * pay.weixin.qq.com/doc/v3/merchant/4012365336 and the samples built on it), as public test
 * suites reproduce them; see docs/decisions/004-wechat-pay.md for where each was read.
 * TEST-ONLY: these keys are public sample keys, never to be used for anything real.
 */

/** The documentation's sample merchant private key (PKCS#8). */
export const docSampleMerchantKey = `-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCm2mb6q8gMKH/3
CNTbpJAIrbqiBiQGEOtjGcBrDYltsGynWgNscqT7WvfzU14FQbYcQUC5T4Wvva7m
i3fIp3OgX8VqMDNA0qebnr38Pe6kqiLyZgFpJPXlSKDyPyqhRbVTbXssvSMQeVKc
dXeVxoNNeoOlNFHgF/P0io6AmAVnz+hN8SiZKuOsth5/zUTLGvtkgxBcQooQrtXh
RcpLT798OyIb9xeJ2HO3xRtMv2+perEzb4gMibI74UBz+2QEbnkubPE+2jU2rRZu
dnNEz/BPOt3Qj/w2V6/G0VumGDh6+UeMU0jv4aupHztWITC4Akn0l7lBCNy3lgl8
VFaJnkIxAgMBAAECggEAYGL8aESB7NwciDWW2UdoWUsa7GxFtSdjAz2mFXGdeTsY
mVh7b9OOkRGM+Qio4LqEHDBp1mMk5E/cUJwy1zw8pGGO5nfvs7u9TT3XnHaefIs4
YvUgTYAneIuLRkXNN5rQU+CD7mVYczTSz0Vgjqo9wa1LjUz7G0xbBmJgTdMEFGJs
eJjy6AbJo0CGIwp6HJbTm4CmOUgXnnDAIbEGTIRImkZFH/rzneIeR7oZ77FVwxr1
CZB2gfRCov/yRPbw8vnryYkmvQ7D/ze3j5097vRg/MoDGBSdoOwcmo75vyofr0AS
zytMjmHYyifqkf5slPropSiJeGf4p/7gtKyF6dE/XQKBgQDVAlJ+4U5ZVGOuDc3+
sAhz8CTzgFNlq9vKuSoFK6hOz2L+cwj+E7NXGkOe2DsHHZNy2Xqxk7caKhPEp1z9
hhpMpyLVMoFt6CKemyoRBWDCQwLLwem9SZF/IAyovBkLiH36P42Jm26gUkNMKC/5
Zhtqxf6RZgRQzbVudJi47vIRCwKBgQDIh0+v27Oo+DM3fhObH4I1NrXpWOEGH7OQ
G1dEsMuFYF4hjGhg0kBEP3w9vVdl2+mRllZKTsx9oqjb8OibPLLIH8xsdbAB0WLf
JvjLu4wl/ILUzN1RI03dWnnv2EnEeQn6c3hizvrJ9wR5U4ue9RPVnQooJ0hZF1PU
uCL5fWK3MwKBgElReU/PAYbh80WP3t3Rfbdaa32dKBeQ5iCLR5lsA4zM+YgX1HqQ
EWTj126vgvHaDkyz6vWAoL/Sx+cirHFfXWIRDX5Q2hgYlQH+6qXdMgbrxeSYpHnQ
/tHBGFpkFELSAnrGsVMyOwvYBO4LzyeLK9i+ufcWJFoj1FVmsMLHDG8tAoGARdbi
iQQCoYG4DMarO2aQ6cmhN6EN1h0qY7EyBqlwaIZ0okiNfdMcMOjPc41DKCWcRmlO
qlihXcxN9TQFPzO3rH1urAOdBjUPs1qWYhZyrDQyuLyVBBJApyxAtajloDjrob+f
mQIvVDHk7ACN6xG+E7K6+9salnTKbJapD618uQMCgYBNy6XUvzLkP/A1U/UZdtcx
l8GwU/dturLxz4CyGbqDw4ubaYY2e13lnqHUqQgPtiSyH51nq3tdo8G0YAJdfkSv
KvnfslW91fyEBUKnkdW1o3/1UFU/wprZ7ixVL/F42A4xDu7OFE8EnweJOZ0jWceE
OdhCkaIGBCfRnlECRK8UyQ==
-----END PRIVATE KEY-----`;

/** Request signature: POST /v3/pay/transactions/jsapi with the documentation's sample body. */
export const docRequestSignature = {
  method: "POST",
  path: "/v3/pay/transactions/jsapi",
  timestamp: 1554208460,
  nonce: "593BEC0C930BF1AFEB40B4A08C8FB242",
  body: '{"appid":"wxd678efh567hg6787","mchid":"1900007291","description":"Image形象店-深圳腾大-QQ公仔","out_trade_no":"1217752501201407033233368018","notify_url":"https://www.weixin.qq.com/wxpay/pay.php","amount":{"total":100,"currency":"CNY"},"payer":{"openid":"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"}}',
  signature:
    "jnks4dlrPw3ZX+ozVvSK39oa0t7OMBsg83BHAwd8BRdUFiVaQNTLTvci+wURgP1OQBbKYhFGvt7iqYpDSTQkp7Uq1sltaQKyncCyrA1g88m5bsKERQfPyT0ahSwKTYJ1CAn9QiJuSJRq1QsQs07eehbU/k9BCS51jTyc1Jpsi2H77HF9f/BnjXAOP3/sPObg6V5Ee4EzwLox684hhuMuIwHo7D8KFk3LIHOKDcNI4It1aCXydFWNpNK+SG86VUDe5kwoDpw4Ulqfu9z8OFDGbDs9TCxEv8iqQzbpxOlEVoOe2kalSYM5kApQb3nZcxdUtoE0liJGW3RGUNE0t4v01A==",
};

/** JSAPI paySign with the same key. */
export const docPaySign = {
  appId: "wx2421b1c4370ec43b",
  timeStamp: "1554208460",
  nonceStr: "593BEC0C930BF1AFEB40B4A08C8FB242",
  package: "prepay_id=wx201410272009395522657a690389285100",
  paySign:
    "mI35pfNEQV6777ke/1T+LJLQDNTm7yeoUJH+j/adPGhmCCi0PbgkvYQTRcXH0uibcLVtvFLdGLpmoYO9FV6lBBsTAjuhh5YOvQi0e2g3e0yytitiNET9FEuqM0pjnKfRW4K6LIZDdbWJv9KhZUx3DrJa5TL7OJ7VdADVivxVySIlPVKjGwuCXzuXSJes0UcILgWQUMyha5/3nYofuHtS7r+KYyMuxD+oJ9VM1Qdxk4UIG59CP5Y3wtYIFybyF3bdu1caHTRRX+DLyMXyYA/IrTmiW01c4RPjpHBX5Dk1sZyY1zVsWNsvMHr2e1NTWtBxKJ+qk5N61J7caYoepHFaxw==",
};

/** An answer signed with a WeChat Pay public key (public-key mode). */
export const docAnswerSignature = {
  publicKeyPem: `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwXNI6sdlknHBnK8Fu2U6
Cwor9qY747jP8KAfeBMeveEt1TqaHkLfaSD07trZLhGpfs8/AHqjhgSMO1O10YQW
OrrJ4hjIWPKqxbgrYMkBQc+mwdiWp4W3ByCqxBRagCveCXRWCmuJYovl9H/bsDI0
iGbpVtEOghJtfciisYSgxcLufUDTRkvwxjIBK1pCRjk33jJ5YTBWTHMRtMAOcFLN
F6hdEYdX8SPsgHHeLZ5Lv2T/686w1xtgCHef/sd4uSfWmyzsalQdHG/e4IyYmrhx
+O3VBoNDzE3nx23bFeV/RVNCG7cV6VhmYokJNHa/erIPkEmEFID6A5wQOXuxUkmJ
WwIDAQAB
-----END PUBLIC KEY-----`,
  serial: "PUB_KEY_ID_0000000000000024101100397200000006",
  timestamp: "1722850421",
  nonce: "d824f2e086d3c1df967785d13fcd22ef",
  body: '{"code_url":"weixin://wxpay/bizpayurl?pr=JyC91EIz1"}',
  signature:
    "mfI1CPqvBrgcXfgXMFjdNIhBf27ACE2YyeWsWV9ZI7T7RU0vHvbQpu9Z32ogzc+k8ZC5n3kz7h70eWKjgqNdKQF0eRp8mVKlmfzMLBVHbssB9jEZEDXThOX1XFqX7s7ymia1hoHQxQagPGzkdWxtlZPZ4ZPvr1RiqkgAu6Is8MZgXXrRoBKqjmSdrP1N7uxzJ/cjfSiis9FiLjuADoqmQ1P7p2N876YPAol7Rn0+GswwAwxldbdLrmVSjfytfSBJFqTMHn4itojgxSWWN1byuckQt8hSTEv/Lg97QoeGniYP17T80pJeQyL3b+295FPHSO2AtvCgyIbKMZ0BALilAA==",
};

/** An AEAD_AES_256_GCM notification resource: a SUCCESS transaction. */
export const docNotificationResource = {
  apiV3Key: "5YI2YwEdV56hCsNEoOGEeL17vRFcz3i6",
  nonce: "katvtHDDPxkw",
  associatedData: "transaction",
  ciphertext:
    "LsCtZf91SEdVjdVNHtl6cnmrMz6atFZbsF0cwQQmgrTSb4WOey3uaKPqKbVb3E+9bT65ND/vJDD7/kLBnqOf8j2niXJ3vtdx11dpAG9yevfWdD8My6k9moQ+uuoLq9D1LVM4/QFGUYU68mKZr5FsPjWlImj06vg010LWzNe24cInjPNfelvfsz1xDKVpMwC1dy4ANPt4ZOCmch/pfezLrg13f/aTs8Rs9v4v+B1jqme9oyUnSVFOOU19gCPvyvCLSVbvf3Ng0noWHKDh2IbA7tozFDkZr8q9Y9f9igfCUq4W4LCnyhIyidqYr17DM8O0I+JlAf+Awf0xFYRMDckQItWAsYp/a11Z3wZ4pEurRlL8Dvz1PsZU9X4ZmCtxfvYVND+b1Xf4zWJV4e9atODn9JIXg8ENmGASrxG64hOQI4al79DT2kIoWSy7SmdyJX0ZI6MILD+x4f5gi4GAT7lpw0ufXK73YXIRfvzEU3EsJDc72AHAsACTdWosSOmLejB2W0Saf27HqDxGOvb2IFaIlwVgL7g7hCItbFJ0MV3X7clwU0V35T+hF5lrrB9OSH0w0GWeRNZmWjeR+EQX2WJWB0JnG7ZKCtxkMhPcCThze92TkIJsCHj0c2uCOru37hMXvce3qJNZSKpMkperGia4HeqVRI+Zn+qc1PCfK+1m8wqdnROMzEa8U3Gw9Exx0CuYff6NGmIMQedr6IlBcJpM8loR1Q3b5ea2oI4lGy+3akXT70QkVRExIcubvPsCzf8r14+rgbonKCkGeAfSiIzRzW7u9HkTSzcZPDQqzMtaIsYVLx/b+eQ0tuGaYbLAfTO0yn+MJx+EQMAPi31qTAggmmSZOudvZHal2/azn12+dSF1Im1KZdddAFcTahKcu9Iu4qZo7q8XvOHuSLjSxh6aAWij6c4HbdxgxDw5zkk3GZtqG+u977HlPDgnJCDTvbTvQ7vrnptBzkXJ3QehJ8AlNLdW3GXXSF3ZkOPYNYnlrbEIpPu255nNj0aTURH4UXQgO+LCjy53bCEumlSoO91BQ1++WSBVnJK9xm5yuBDkjFSZjwQ27IM3V66db3766QUnUG8gnqASMzXQ+eNTAUMTNW8NC7ccQ1Z2YCsDVhEH7fDzbSuTExIV+/fgIE4Zpn7r+Ry+AnTRn92CQRW1ri8+hdL60uQDiBma1fovMNPX/cVrNwPF2r+b12Fp8KLF51572KCy487nj2+1OhzF8tbe8ZPLQRvv2bHKJnubQDKHP607KdbZMMPrl9BfpTQYVUKwo1GAjytizlQpVvWf4+PVgDjdys84tiw+iS9/HStC9NatcRZqXn4YR9c69ICaCqiHKEV9S7EPEI73nmb1o/Jl+Pnl/wul+eOtK5X3LY+n5Rh+WciCL4zZG64lsUGzRgFprxoJBqDJFFydVTzKktQT2aoHiUpk9j4Vc3fcmYru0CfUBi5qhi2bKr8+PwWWKgS1mPeU3o/cqkBUqSAXTjewq298351pQ7LVSadp+UXR5je+Nal5OfCVCAVyUB4PVhRTQLPcubRLwYRh/+1LLL/xizgUf6rCOcYNZQ3MnCUCdgVKE4IftSmFQwE91fdVoJQUbrsNuNchG26681XekJVh70iLhzmkYaSdE69WPfN01R8B4uQziY/VHLztg60F9vEIZs5DxPj2lafiwDGTk+cSH/VF2DC+A/8mJlqZCMEn2kv1SDg1i0aV74MJn6EDkI2NyahXAzvEEpdUDG9nRtRqSy9DA/E5Ae0HV0jqWXSGYSrXOT07PNqCxgzfgXE/oEGuGTb/30rD7dU=",
  transactionId: "1217752501201407033233368018",
};
