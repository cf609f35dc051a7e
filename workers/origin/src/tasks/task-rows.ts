import type { Task } from "#contract/tasks";

export type TaskRow = {
  id: string;
  title: string;
  description: string;
  reward: number;
  slots: number;
  deadline: number;
  status: Task["status"];
  order_id: string;
  poster_handle: string;
  poster_display_name: string;
  escrow_remaining: number;
  slots_taken: number;
  created_at: number;
};

export const taskColumns = `id, title, description, reward, slots, deadline, status, order_id, escrow_remaining, slots_taken, created_at,
  (SELECT handle FROM user WHERE user.id = task.poster_id) AS poster_handle,
  (SELECT display_name FROM user WHERE user.id = task.poster_id) AS poster_display_name`;

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
    poster: { handle: row.poster_handle, displayName: row.poster_display_name },
    escrowRemaining: row.escrow_remaining,
    slotsLeft: row.slots - row.slots_taken,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
