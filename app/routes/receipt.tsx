import { Link } from "react-router";
import type { Route } from "./+types/receipt";
import type { Receipt } from "#contract/receipts";
import type { ReceiptKind } from "#contract/wallet";
import { getReceipt } from "../api/receipts";
import { DateTime, Money } from "../components/money";
import { PersonName } from "../components/person-name";
import { WechatPaidOut } from "../components/wechat-paid-out";
import { metaLanguage, useLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { receiptMessages } from "../messages/receipt";
import { wechatPaidOutMessages } from "../messages/wechat-paid-out";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import "../styles/receipt.css";

export function meta({ matches }: Route.MetaArgs) {
  const text = receiptMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

const kinds = Object.keys(receiptMessages.en.heading) as ReceiptKind[];

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  // An address that names no kind is simply no receipt of this person's.
  const kind = kinds.find((known) => known === params.kind) ?? "transfer";
  const id = kinds.includes(params.kind as ReceiptKind) ? params.id : "none";
  return loadPersonal((api) => getReceipt(api, kind, id));
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const text = useMessages(receiptMessages);
  return (
    <section aria-labelledby="receipt-page-title">
      <h1 id="receipt-page-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

function Party({ person }: { person: Receipt["payer"] }) {
  const text = useMessages(receiptMessages);
  return person ? <PersonName person={person} /> : <strong>{text.paydesk}</strong>;
}

function ReceiptSheet({ receipt }: { receipt: Receipt }) {
  const text = useMessages(receiptMessages);
  const paidOutText = useMessages(wechatPaidOutMessages);
  const language = useLanguage();
  return (
    <article className="card receipt-sheet" aria-labelledby="receipt-heading" data-testid="receipt">
      <p className="receipt-brand" aria-hidden="true">
        Paydesk
      </p>
      <h2 id="receipt-heading">{text.heading[receipt.kind]}</h2>
      <p className="amount-large receipt-amount">
        <Money amount={receipt.amount} />
      </p>
      <dl className="summary receipt-details">
        <dt>{text.status}</dt>
        <dd>
          <span className={`badge badge-${receipt.status}`}>{text.statusValue[receipt.status]}</span>
        </dd>
        <dt>{text.time}</dt>
        <dd>
          <DateTime iso={receipt.createdAt} />
        </dd>
        <dt>{text.payer}</dt>
        <dd>
          <Party person={receipt.payer} />
        </dd>
        <dt>{text.payee}</dt>
        <dd>
          <Party person={receipt.payee} />
        </dd>
        {receipt.method ? (
          <>
            <dt>{text.method}</dt>
            <dd>{text.methodValue[receipt.method]}</dd>
          </>
        ) : null}
        {receipt.wechatPaidOut !== null ? (
          <>
            <dt>{paidOutText.label}</dt>
            <dd>
              <WechatPaidOut amount={receipt.amount} paidOut={receipt.wechatPaidOut} />
            </dd>
          </>
        ) : null}
        {receipt.note !== null ? (
          <>
            <dt>{text.note}</dt>
            <dd>{receipt.note || text.noNote}</dd>
          </>
        ) : null}
        {receipt.order ? (
          <>
            <dt>{text.order}</dt>
            <dd>
              {/* The origin words an order's description in English: another language names its kind only, as the order page does. */}
              {language === "en"
                ? `${text.orderKind[receipt.order.kind]}: ${receipt.order.description}`
                : text.orderKind[receipt.order.kind]}
              <br />
              <Link to={`/order?id=${receipt.order.id}`}>
                <code>{receipt.order.id}</code>
              </Link>
            </dd>
          </>
        ) : null}
        {receipt.task ? (
          <>
            <dt>{text.task}</dt>
            <dd>{receipt.task.title}</dd>
          </>
        ) : null}
        {receipt.transactionId ? (
          <>
            <dt>{text.transaction}</dt>
            <dd>
              <code>{receipt.transactionId}</code>
            </dd>
          </>
        ) : null}
        <dt>{text.reference}</dt>
        <dd>
          <code>{receipt.id}</code>
        </dd>
      </dl>
    </article>
  );
}

export default function ReceiptPage({ loaderData }: Route.ComponentProps) {
  const text = useMessages(receiptMessages);
  return (
    <section className="receipt-page" aria-labelledby="receipt-page-title">
      <h1 id="receipt-page-title" className="receipt-page-title">
        {text.title}
      </h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(receipt) => (
          <>
            <ReceiptSheet receipt={receipt} />
            <p className="form-actions receipt-actions">
              <button type="button" className="button" onClick={() => window.print()}>
                {text.print}
              </button>
              <Link to="/wallet">{text.back}</Link>
            </p>
          </>
        )}
      </PersonalView>
    </section>
  );
}
