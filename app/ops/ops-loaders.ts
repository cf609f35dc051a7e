/** The back office pages' reads, as the signed-in operator (the layout has checked the role). */
import { getOrderRefunds, getOrderStory, getPersonPage, refundsAwaitingApproval, refundsNeedingAHand, searchPeople } from "../api/ops";
import { loadPersonal } from "../personal/load-personal";

export const getPeople = (q: string, cursor?: string) => loadPersonal((api) => searchPeople(api, q, cursor));

export const getPerson = (id: string) => loadPersonal((api) => getPersonPage(api, id));

export const getOrder = (id: string) =>
  loadPersonal(async (api) => {
    const [story, refunds] = await Promise.all([getOrderStory(api, id), getOrderRefunds(api, id)]);
    return { story, refunds };
  });

/** The refunds page: operators' refunds awaiting approval, and WeChat Pay refunds that need a hand. */
export const getRefundWork = () =>
  loadPersonal(async (api) => {
    const [approvals, needingAHand] = await Promise.all([refundsAwaitingApproval(api), refundsNeedingAHand(api)]);
    return { approvals, needingAHand };
  });
