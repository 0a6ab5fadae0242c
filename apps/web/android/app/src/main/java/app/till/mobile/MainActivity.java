package app.till.mobile;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
