"""The fault suite: every fault and hostile input of issue 22, one test each."""
