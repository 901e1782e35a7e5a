mod flow;
