import type { Task } from "../../../../app/api/tasks";

export type TaskRow = {
  id: string;
  title: string;
  description: string;
  reward: number;
  slots: number;
  deadline: number;
  status: Task["status"];
  order_id: string;
  escrow_remaining: number;
  created_at: number;
};

export const taskColumns = "id, title, description, reward, slots, deadline, status, order_id, escrow_remaining, created_at";

export function taskFromRow(row: TaskRow): Task {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    reward: row.reward,
    slots: row.slots,
    deadline: new Date(row.deadline).toISOString(),
    status: row.status,
    orderId: row.order_id,
    escrowRemaining: row.escrow_remaining,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
