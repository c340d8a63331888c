package dev.tributary.client;

import java.util.List;

/**
 * Where a {@link ChangeConsumer} in a consumer group stands: its member id, the epoch of the
 * membership it reads under, and the sorted member list that shares the ring.
 *
 * @param group    the group's name
 * @param memberId this member's id (a new one after the member lost its lease and joined again)
 * @param epoch    the group's epoch this member's share is from
 * @param members  the members, sorted; this member's index in it is its share of the ring
 */
public record GroupMembership(String group, String memberId, long epoch, List<String> members) {
    public GroupMembership {
        members = List.copyOf(members);
    }

    /** This member's index in {@link #members()}. */
    public int index() {
        return members.indexOf(memberId);
    }
}
