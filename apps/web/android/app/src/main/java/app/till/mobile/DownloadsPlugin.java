package app.till.mobile;

import android.Manifest;
import android.content.ContentResolver;
import android.content.ContentValues;
import android.content.Intent;
import android.database.Cursor;
import android.media.MediaScannerConnection;
import android.net.Uri;
import android.os.Build;
import android.os.Environment;
import android.provider.MediaStore;
import android.util.Base64;
import android.webkit.MimeTypeMap;
import androidx.core.content.FileProvider;
import com.getcapacitor.JSObject;
import com.getcapacitor.PermissionState;
import com.getcapacitor.Plugin;
import com.getcapacitor.PluginCall;
import com.getcapacitor.PluginMethod;
import com.getcapacitor.annotation.CapacitorPlugin;
import com.getcapacitor.annotation.Permission;
import com.getcapacitor.annotation.PermissionCallback;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Saves a file into the shared Download folder, where the user's file manager and other apps find
 * it. Android 10 and newer: through MediaStore's Downloads collection, which needs no permission
 * (Filesystem's ExternalStorage is not writable there from Android 11 on). Older: the folder
 * itself, with WRITE_EXTERNAL_STORAGE (declared up to API 28). A name already taken gets a
 * number ("codes (1).txt"), never overwrites, and the answer says which name the file got.
 */
@CapacitorPlugin(
    name = "TillDownloads",
    permissions = { @Permission(alias = DownloadsPlugin.STORAGE, strings = { Manifest.permission.WRITE_EXTERNAL_STORAGE }) }
)
public class DownloadsPlugin extends Plugin {

    static final String STORAGE = "storage";

    /** save({ name, data: base64, mimeType? }) → { name, folder, uri }. */
    @PluginMethod
    public void save(PluginCall call) {
        String name = call.getString("name");
        String data = call.getString("data");
        if (name == null || data == null) {
            call.reject("name and data are required", "INVALID_ARGUMENT");
            return;
        }
        String safeName = name.replaceAll("[/\\\\:*?\"<>|\\x00-\\x1f]", "_").trim();
        if (safeName.isEmpty() || safeName.startsWith(".")) safeName = "download" + safeName;
        byte[] bytes;
        try {
            bytes = Base64.decode(data, Base64.DEFAULT);
        } catch (IllegalArgumentException e) {
            call.reject("data is not base64", "INVALID_ARGUMENT", e);
            return;
        }
        String mimeType = call.getString("mimeType");
        if (mimeType == null || mimeType.isEmpty()) mimeType = mimeTypeOf(safeName);

        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.Q) {
            saveToMediaStore(call, safeName, mimeType, bytes);
        } else if (getPermissionState(STORAGE) != PermissionState.GRANTED) {
            requestPermissionForAlias(STORAGE, call, "storagePermissionAnswered");
        } else {
            saveToFolder(call, safeName, mimeType, bytes);
        }
    }

    @PermissionCallback
    private void storagePermissionAnswered(PluginCall call) {
        if (getPermissionState(STORAGE) == PermissionState.GRANTED) save(call);
        else call.reject("Permission to save into Download was refused", "PERMISSION_DENIED");
    }

    /** share({ uri, mimeType? }): hands a saved file to the system's share sheet (open with, send). */
    @PluginMethod
    public void share(PluginCall call) {
        String uri = call.getString("uri");
        if (uri == null) {
            call.reject("uri is required", "INVALID_ARGUMENT");
            return;
        }
        String mimeType = call.getString("mimeType");
        Uri content = Uri.parse(uri);
        Intent send = new Intent(Intent.ACTION_SEND);
        send.setType(mimeType != null ? mimeType : getContext().getContentResolver().getType(content));
        send.putExtra(Intent.EXTRA_STREAM, content);
        send.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION);
        Intent chooser = Intent.createChooser(send, null);
        chooser.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION);
        getActivity().startActivity(chooser);
        call.resolve();
    }

    private void saveToMediaStore(PluginCall call, String name, String mimeType, byte[] bytes) {
        ContentResolver resolver = getContext().getContentResolver();
        ContentValues values = new ContentValues();
        values.put(MediaStore.MediaColumns.DISPLAY_NAME, name);
        values.put(MediaStore.MediaColumns.MIME_TYPE, mimeType);
        values.put(MediaStore.MediaColumns.RELATIVE_PATH, Environment.DIRECTORY_DOWNLOADS);
        // Hidden from other apps until it is whole.
        values.put(MediaStore.MediaColumns.IS_PENDING, 1);
        Uri item = resolver.insert(MediaStore.Downloads.getContentUri(MediaStore.VOLUME_EXTERNAL_PRIMARY), values);
        if (item == null) {
            call.reject("The Download folder did not take the file", "SAVE_FAILED");
            return;
        }
        try (OutputStream out = resolver.openOutputStream(item)) {
            if (out == null) throw new IOException("no stream for " + item);
            out.write(bytes);
        } catch (IOException e) {
            resolver.delete(item, null, null);
            call.reject("Could not write the file: " + e.getMessage(), "SAVE_FAILED", e);
            return;
        }
        ContentValues done = new ContentValues();
        done.put(MediaStore.MediaColumns.IS_PENDING, 0);
        resolver.update(item, done, null, null);
        // MediaStore numbers a name that is taken: the name the file got is read back.
        String saved = name;
        try (Cursor cursor = resolver.query(item, new String[] { MediaStore.MediaColumns.DISPLAY_NAME }, null, null, null)) {
            if (cursor != null && cursor.moveToFirst()) saved = cursor.getString(0);
        }
        call.resolve(answer(saved, item));
    }

    private void saveToFolder(PluginCall call, String name, String mimeType, byte[] bytes) {
        File folder = Environment.getExternalStoragePublicDirectory(Environment.DIRECTORY_DOWNLOADS);
        if (!folder.isDirectory() && !folder.mkdirs()) {
            call.reject("The Download folder is not available", "SAVE_FAILED");
            return;
        }
        File file;
        try {
            file = createUnique(folder, name);
            try (OutputStream out = new FileOutputStream(file)) {
                out.write(bytes);
            }
        } catch (IOException e) {
            call.reject("Could not write the file: " + e.getMessage(), "SAVE_FAILED", e);
            return;
        }
        MediaScannerConnection.scanFile(getContext(), new String[] { file.getAbsolutePath() }, new String[] { mimeType }, null);
        Uri uri = FileProvider.getUriForFile(getContext(), getContext().getPackageName() + ".fileprovider", file);
        call.resolve(answer(file.getName(), uri));
    }

    /** Creates "name", else "name (1)", "name (2)"…: createNewFile is atomic, so no file is overwritten. */
    static File createUnique(File folder, String name) throws IOException {
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : "";
        for (int n = 0; n < 1000; n++) {
            File candidate = new File(folder, n == 0 ? name : base + " (" + n + ")" + extension);
            if (candidate.createNewFile()) return candidate;
        }
        throw new IOException("no free name for " + name);
    }

    private static String mimeTypeOf(String name) {
        int dot = name.lastIndexOf('.');
        String type = dot < 0 ? null : MimeTypeMap.getSingleton().getMimeTypeFromExtension(name.substring(dot + 1).toLowerCase());
        return type != null ? type : "application/octet-stream";
    }

    private static JSObject answer(String name, Uri uri) {
        JSObject ret = new JSObject();
        ret.put("name", name);
        ret.put("folder", Environment.DIRECTORY_DOWNLOADS);
        ret.put("uri", uri.toString());
        return ret;
    }
}
