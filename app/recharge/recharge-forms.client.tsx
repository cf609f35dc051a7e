/*
 * Topping up, for someone signed in: redeeming a prepaid code and ordering an online recharge.
 * A chunk fetched on first use (app/routes/recharge.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { redirect, useFetcher } from "react-router";
import type { RedeemCodeAnswer } from "#contract/codes";
import { rechargeSchemas } from "../contract-schemas";
import { redeemCode } from "../api/codes";
import { createRechargeOrder } from "../api/orders";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { Field, FormAlert, MoneyField, SubmitButton } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { formatMoney, parseYuan } from "../i18n/format";
import { currentLanguage, useLanguage, useMessages } from "../i18n/messages";
import { rechargeMessages } from "../messages/recharge";
import { orderReferrerOf } from "../forms/order-referrer";
import { getStartupState } from "../startup/startup-state";
import { formMessages } from "../messages/forms";
import { currentMoneyLimits, sayRange, useMoneyLimits } from "../money-limits";
import { usePrefetchWhenIdle } from "../startup/on-first-use";

const fieldMessages = () => rechargeMessages[currentLanguage()].fields;

const rechargeIntents = {
  redeem: (form: FormData): Promise<ActionResult | Response> =>
    runAction(
      "redeem",
      async (api) =>
        redeemCode(
          api,
          await checked((await rechargeSchemas.load()).redeemCodeBodySchema, { code: formText(form, "code").trim() }, fieldMessages()),
          formText(form, "idempotencyKey"),
        ),
      { movesMoney: true },
    ),
  recharge: async (form: FormData): Promise<ActionResult | Response> => {
    const language = currentLanguage();
    // The deploy's range for one recharge (app/money-limits.ts), which may be tighter than the schema's.
    const amountRange = currentMoneyLimits().recharge;
    const result = await runAction("recharge", async (api) => {
      const body = await checked(
        (await rechargeSchemas.load()).createRechargeOrderBodySchema,
        { amount: parseYuan(formText(form, "amount")), referrer: orderReferrerOf(getStartupState().referrers) },
        { ...fieldMessages(), amount: sayRange(amountRange, language, formMessages[language].amountOutside) },
        { amount: amountRange },
      );
      return createRechargeOrder(api, body, formText(form, "idempotencyKey"));
    });
    return result.ok ? redirect(`/pay?order=${encodeURIComponent(result.data.id)}`) : result;
  },
};

/** The page's action: redeem a code, or order a recharge (and go on to pay it). */
export function actOnRechargeForm(form: FormData): Promise<ActionResult | Response> {
  return dispatchIntent(form, rechargeIntents);
}

function RedeemForm() {
  const text = useMessages(rechargeMessages);
  const language = useLanguage();
  const fetcher = useFetcher<ActionResult<RedeemCodeAnswer>>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result);
  return (
    <section className="card" aria-labelledby="redeem-title">
      <h2 id="redeem-title">{text.redeemTitle}</h2>
      <fetcher.Form method="post" className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={["code"]} />
        <input type="hidden" name="intent" value="redeem" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Field
          id="redeem-code"
          name="code"
          label={text.code}
          hint={text.codeHint}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={40}
          className="code-input"
          error={fieldError(result, "code")}
        />
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.redeeming}>
          {text.redeem}
        </SubmitButton>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {result?.ok ? <p className="notice notice-success">{text.redeemed(formatMoney(result.data.value, language))}</p> : null}
      </div>
    </section>
  );
}

function OnlineTopUp() {
  const text = useMessages(rechargeMessages);
  const amountHint = sayRange(useMoneyLimits().recharge, useLanguage(), text.amountHint);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result, { resetOnSuccess: false });
  return (
    <section className="card" aria-labelledby="online-title">
      <h2 id="online-title">{text.onlineTitle}</h2>
      <fetcher.Form method="post" className="form" ref={formRef} noValidate>
        <FormAlert result={result} fields={["amount"]} />
        <input type="hidden" name="intent" value="recharge" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <MoneyField id="recharge-amount" name="amount" label={text.amount} hint={amountHint} error={fieldError(result, "amount")} />
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.creating}>
          {text.createOrder}
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}

export function RechargeForms() {
  usePrefetchWhenIdle(rechargeSchemas.part);
  return (
    <div className="cards">
      <RedeemForm />
      <OnlineTopUp />
    </div>
  );
}
