import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/ops-orders";
import { searchOrders } from "../../api/ops";
import { DateTime, Money } from "../../components/money";
import { Field, SelectField } from "../../forms/fields";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { orderMessages } from "../../messages/orders";
import { useOrderTitle } from "../../components/order-summary";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";

const textFilters = ["q", "person"] as const;
const statuses = ["pending", "paid", "closed"] as const;
const kinds = ["recharge", "task_budget"] as const;

/** The address's filters as the API takes them: a day is its start in China (UTC+8). */
function queryOf(params: URLSearchParams): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = { cursor: params.get("cursor") ?? undefined };
  for (const name of [...textFilters, "status", "kind"]) query[name] = params.get(name)?.trim() || undefined;
  for (const name of ["from", "to"]) {
    const day = params.get(name);
    if (day && /^\d{4}-\d{2}-\d{2}$/.test(day)) query[name] = new Date(`${day}T00:00:00+08:00`).toISOString();
  }
  return query;
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  return loadPersonal((api) => searchOrders(api, queryOf(params)));
}

/** Orders by id, WeChat Pay's numbers, person, status, kind and dates (docs/decisions/014-back-office-desks.md). */
export default function OpsOrders({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const orders = useMessages(orderMessages);
  const orderTitle = useOrderTitle();
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="ops-orders-title">
      <h1 id="ops-orders-title">{text.ordersTitle}</h1>
      <Form method="get" role="search" className="ops-grid">
        {textFilters.map((name) => (
          <Field
            key={name}
            id={`ops-orders-${name}`}
            name={name}
            label={text.orderFilters[name]}
            defaultValue={params.get(name) ?? ""}
            maxLength={64}
          />
        ))}
        <SelectField
          id="ops-orders-status"
          name="status"
          label={text.orderFilters.status}
          defaultValue={params.get("status") ?? ""}
          options={[{ value: "", label: text.any }, ...statuses.map((status) => ({ value: status, label: orders.status[status] }))]}
        />
        <SelectField
          id="ops-orders-kind"
          name="kind"
          label={text.orderFilters.kind}
          defaultValue={params.get("kind") ?? ""}
          options={[{ value: "", label: text.any }, ...kinds.map((kind) => ({ value: kind, label: orders.kind[kind] }))]}
        />
        <Field id="ops-orders-from" name="from" type="date" label={text.orderFilters.from} defaultValue={params.get("from") ?? ""} />
        <Field id="ops-orders-to" name="to" type="date" label={text.orderFilters.to} defaultValue={params.get("to") ?? ""} />
        <div className="form-actions">
          <button className="button" type="submit">
            {text.searchButton}
          </button>
        </div>
      </Form>
      <OpsView result={loaderData}>
        {(page) =>
          page.orders.length === 0 ? (
            <p>{text.noOrders}</p>
          ) : (
            <>
              <ul className="item-list" data-testid="ops-orders">
                {page.orders.map((order) => (
                  <li key={order.id} className="item">
                    <span className="item-main">
                      <Link className="item-title" to={`/ops/orders/${order.id}`}>
                        {orderTitle(order)}
                      </Link>
                      <span className="item-meta">
                        <DateTime iso={order.createdAt} /> · @{order.person.handle} · {order.id}
                      </span>
                    </span>
                    <span className="item-side">
                      <Money amount={order.amount} /> <span className="badge">{orders.status[order.status]}</span>
                    </span>
                  </li>
                ))}
              </ul>
              {page.nextCursor ? (
                <p>
                  <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), cursor: page.nextCursor })}`}>{text.more}</Link>
                </p>
              ) : null}
            </>
          )
        }
      </OpsView>
    </section>
  );
}
